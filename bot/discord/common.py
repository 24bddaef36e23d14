"""Helpers every Discord callback shares: the error guard, ephemeral replies, seat names, guild settings."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.sessions import MatchInfo, SessionError
from engine.table.present import seat_refs

if TYPE_CHECKING:
    from bot.discord.app import AgoraBot

log = logging.getLogger("bot.discord")

OOPS = "Something went wrong on our side; the game is safe. Please try again."
NOT_SEATED = (
    "You are not playing in this game, so you can't act in it — but anyone can look at the board and the Log."
)
POLICIES = ("skip", "ai", "forfeit")
DEFAULT_REMINDER = 12 * 3600.0  # seconds


class StaticView(discord.ui.View):
    """A view of plain components that discord.py does not keep in memory.

    Every custom_id matches one of the registered DynamicItem templates, so presses are dispatched from the
    custom_id alone (after a restart too) and nothing accumulates per message sent.
    """

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        """Never stored: the registered DynamicItems handle every press."""
        return False


def bot_of(interaction: discord.Interaction) -> AgoraBot:
    """The AgoraBot that received this interaction."""
    return interaction.client  # type: ignore[return-value]


async def reply(interaction: discord.Interaction, text: str | None, **kwargs: Any) -> None:
    """Answer ephemerally, whether or not the interaction was already acknowledged."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


async def guarded(
    interaction: discord.Interaction, match_id: int | None, work: Callable[[], Awaitable[None]]
) -> None:
    """Run a callback: refusals become ephemeral answers; any other error is logged with the match id."""
    try:
        await work()
    except SessionError as refusal:
        await reply(interaction, str(refusal))
    except Exception:
        log.exception("Discord callback %r failed (match %s)", interaction.data, match_id)
        try:
            await reply(interaction, OOPS)
        except discord.HTTPException:
            log.exception("could not tell the user about the failure (match %s)", match_id)


def seat_names(info: MatchInfo) -> list[str]:
    """A display name per seat: the member's name, or "Bot 1", "Bot 2"... for AI seats."""
    names, bots = [], 0
    for seat in info.seats:
        if seat.is_ai:
            bots += 1
            names.append(f"Bot {bots}")
        else:
            names.append(seat.name or f"Player {len(names) + 1}")
    return names


def with_names(info: MatchInfo, text: str) -> str:
    """An engine event text with seat numbers ("P2") replaced by the players' names."""
    return seat_refs(text, seat_names(info))


def who(info: MatchInfo, seat: int) -> str:
    """A mention for a person's seat, the bot's name for an AI seat."""
    s = info.seats[seat]
    return f"<@{s.user_id}>" if s.user_id is not None and not s.is_ai else seat_names(info)[seat]


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's choices (/config): lobbies in threads, reminders and turn timeouts (seconds; None = off)."""

    threads: bool = True
    reminder: float | None = DEFAULT_REMINDER
    timeout: float | None = None
    policy: str = "ai"

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GuildSettings:
        """From the store's guild settings dict."""
        policy = data.get("timeout_policy", "ai")
        return cls(
            threads=data.get("thread_mode", "thread") != "here",
            reminder=data.get("reminder_seconds", DEFAULT_REMINDER) or None,
            timeout=data.get("timeout_seconds") or None,
            policy=policy if policy in POLICIES else "ai",
        )

    def describe(self) -> str:
        """The settings in words."""

        def span(s: float | None) -> str:
            if s is None:
                return "off"
            return f"{s / 3600:g} h" if s >= 3600 else f"{s / 60:g} min"

        policy = {"skip": "skip the turn", "ai": "an AI takes the seat", "forfeit": "the player forfeits"}
        return (
            f"Lobbies: {'in a new thread' if self.threads else 'in the channel itself'}\n"
            f"Reminder after: {span(self.reminder)}\n"
            f"Turn timeout: {span(self.timeout)}" + (f" ({policy[self.policy]})" if self.timeout else "")
        )
