"""What the bot needs in a game's channel, and a plain message when Discord refuses it.

The board is a Components V2 message (text, an uploaded image, buttons; no embed): in a channel the bot needs
View Channel, Send Messages (Send Messages in Threads in a thread) and Attach Files. When Discord answers a
board post with 403 (Missing Permissions), `board_refused` tells the channel in plain text (with the board's
buttons, so the game goes on: that needs nothing but Send Messages) who is to act and which permission an
admin must grant; where even that is impossible it logs a warning. Nothing is raised: a missing permission is
a server's setting, not a bug."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.sessions import MatchInfo

log = logging.getLogger("bot.discord.permissions")

# (discord.Permissions attribute, the name Discord's settings show), in the order they are checked.
BOARD_NEEDS = (
    ("view_channel", "View Channel"),
    ("send_messages", "Send Messages"),
    ("attach_files", "Attach Files"),
)
IN_THREADS = ("send_messages_in_threads", "Send Messages in Threads")

_last_notice: dict[int, tuple[int, str]] = {}  # channel id -> (message id, text) of the last notice there


def _needs(channel: Any) -> list[tuple[str, str]]:
    needs = list(BOARD_NEEDS)
    if isinstance(channel, discord.Thread):
        needs[1] = IN_THREADS
    return needs


def missing_for_board(channel: Any) -> list[str] | None:
    """The names of the permissions the bot lacks in `channel` to post a board; None when unknown (a DM, or
    a channel whose guild or parent is not cached)."""
    guild = getattr(channel, "guild", None)
    me = guild.me if guild is not None else None
    if me is None or not hasattr(channel, "permissions_for"):
        return None
    try:
        perms = channel.permissions_for(me)
    except discord.ClientException:  # a thread whose parent is not cached
        return None
    return [label for attr, label in _needs(channel) if not getattr(perms, attr)]


def _names(labels: list[str]) -> str:
    bold = [f"**{label}**" for label in labels]
    return bold[0] if len(bold) == 1 else ", ".join(bold[:-1]) + " and " + bold[-1]


def refusal_text(info: MatchInfo, missing: list[str], bot_name: str, *, buttons: bool = False) -> str:
    """The notice: who is to act, then what is missing and where an admin grants it."""
    shown = [m for m in missing if m not in ("View Channel", "Send Messages", "Send Messages in Threads")]
    shown = shown or ["Attach Files"]  # unknown: name what the board itself needs
    plural = "permissions" if len(shown) > 1 else "permission"
    lines = []
    if info.users_to_act and not info.over:
        lines.append(" ".join(f"<@{u}>" for u in info.users_to_act) + " — it's your turn.")
    lines.append(
        f"⚠️ I can't post the board of {info.title} (game #{info.id}) here: I need the {_names(shown)} "
        f"{plural} in this channel. A server admin can grant {'them' if len(shown) > 1 else 'it'} to "
        f"**{bot_name}** in the channel's settings → Permissions; the board appears with the next move."
    )
    if buttons and info.users_to_act and not info.over:
        lines.append("Meanwhile, press **My hand & moves** below to play.")
    return "\n".join(lines)


async def board_refused(
    bot: discord.Client,
    channel: Any,
    info: MatchInfo,
    error: discord.Forbidden,
    view: discord.ui.View | None = None,
) -> None:
    """Discord refused to post or edit the board (403): say so in the channel in plain text, with the board's
    buttons (`view`) when given; the same notice is not repeated while it is still the channel's latest
    message."""
    missing = missing_for_board(channel) or []
    send = "Send Messages in Threads" if isinstance(channel, discord.Thread) else "Send Messages"
    log.warning(
        "match %s: Discord refused the board in channel %s (%s); missing: %s",
        info.id, getattr(channel, "id", "?"), error.text or error.status, ", ".join(missing) or "unknown",
    )  # fmt: skip
    if "View Channel" in missing or send in missing:
        return  # we cannot even write there: the log is all we can do
    bot_name = bot.user.display_name if bot.user is not None else "the bot"
    text = refusal_text(info, missing, bot_name, buttons=view is not None)
    channel_id = getattr(channel, "id", 0)
    last = _last_notice.get(channel_id)
    if last is not None and last[1] == text and getattr(channel, "last_message_id", None) == last[0]:
        return
    try:
        sent = await channel.send(text, view=view) if view is not None else await channel.send(text)
    except discord.HTTPException as e:
        log.warning("match %s: could not explain the missing permissions either: %s", info.id, e)
        return
    _last_notice[channel_id] = (sent.id, text)
