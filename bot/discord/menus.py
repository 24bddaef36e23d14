"""'My hand & moves': the ephemeral hand image and the move menus built from `describe()` paths.

A seat's moves are `Move(key, path)`. Level 1 of the menu is the distinct first path elements, pressing one
shows the next level for that prefix, and a complete path plays the move. custom_ids carry the match id, the
state_id the menu was drawn at and the position in the menu ("2.0" = third option, then first), never a card:

    ag:hand:<match>:<state>                    the board's button: open the menu (a new ephemeral message)
    ag:mv:<match>:<state>:<path>[:p<page>]     a menu button (an option, Back, or a page of a long list)
    ag:ms:<match>:<state>:<path>               a select menu (levels with more than 25 options); value = index
    ag:undo:<match>:<state>                    take back your last move (offered when the rules allow it)

A custom_id none of these (nor any other registered component) matches gets a short ephemeral answer
(`answer_unclaimed`), never silence.

A press re-reads `moves_for` at that state_id; a different state_id answers "out of date" with a fresh menu,
unless only other seats have moved since (a simultaneous choice: everyone picks face-down cards at once) and
the menu pressed is the very one this seat would be shown now; then the press counts, and what follows is
drawn at the new state_id.
In a response window (the game's Status.window) the menu says so, when it passes by itself, and offers the
game's pass (action kind "pass") as a **Pass** button after the other moves.

The hand message is one ephemeral Components V2 message (hand_layout): a container with the hand image and
its alt text (describe.hand_alt, from the owner's view) or, for /notify board:text, the text board; the
notes, prompt and deadline as text; the menu's action rows. A level of the menu keeps the container as it
is and replaces the rest. A hand message from before Components V2 becomes one at its next edit.
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
import time
from collections.abc import Sequence
from typing import Any

import discord
from discord.utils import escape_markdown

from bot import ops
from bot.discord.common import (
    BARE,
    NOT_SEATED,
    V2_TEXT,
    Look,
    Rebuilt,
    StaticLayout,
    StaticView,
    custom_id_of,
    drawn_names,
    fits,
    lesson_text,
    reply,
    values_of,
    who,
    with_names,
)
from bot.discord.learn import HintButton, real_table_button
from bot.discord.prefs import TEXT, board_text
from bot.discord.services import guarded_press, services_of
from bot.sessions import MatchInfo, Move, SessionError, StaleState
from bot.sessions.types import WINDOW_WORDS, SeatSnapshot, own_seat, walk
from bot.store import BROKEN, StoreError
from engine.registry import get as get_game
from engine.table import describe
from engine.table.decisions import PASS
from engine.table.describe import fit
from engine.table.lesson import MARK, practice, step_lines, unmarked
from engine.table.present import move_words, of, seat_refs, shorten

log = logging.getLogger("bot.discord.menus")

BUTTONS_AT_ROOT = 25  # five rows of five
BUTTONS_BELOW = 20  # four rows, the fifth holds Back
PAGE = 25  # options in one select menu
LABEL_MAX, OPTION_MAX = 80, 100  # Discord: a button's label, a select option's label (characters)
STALE = "⏳ That menu is out of date — the game has moved on. Here are your moves now."
UNCLAIMED = (
    "That button is not one Agora knows (it may come from an old or altered message). Use the latest board."
)
SETTLE_WAIT = 8.0  # seconds a reply to a move waits for the steps played after it (an AI thinks ~1 s a move)
HAND_URL = "attachment://hand.png"  # the hand image in its media gallery
BOARD_URL = "attachment://board.png"  # a practice game without a channel shows its board with the hand
PATH = r"(?P<path>(?:[0-9]+(?:\.[0-9]+)*)?)"  # option indexes "2.0", or "" for the top level


def _path_text(path: tuple[int, ...]) -> str:
    return ".".join(map(str, path))


def _parse_path(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split(".")) if text else ()


def _back(moves: list[Move], path: tuple[int, ...]) -> tuple[int, ...] | None:
    """Where Back goes: the nearest level above with a real choice (None at the top)."""
    while path:
        path = path[:-1]
        level = walk(moves, path)
        if level is not None and len(level.options) > 1:
            return path
    return None


def menu(
    mid: int, sid: int, moves: list[Move], path: tuple[int, ...] = (), page: int = 0
) -> tuple[str, StaticView]:
    """The menu text and components for one level (buttons, or a paged select beyond the buttons' room)."""
    level = walk(moves, path)
    if level is None:
        path, level = (), walk(moves, ())
        assert level is not None
    while len(level.options) == 1 and not level.leaves:  # one way on ("Discard", "All red!"): take it
        path = (*path, 0)
        level = walk(moves, path)
        assert level is not None
    back = _back(moves, path)
    view = StaticView()
    room = BUTTONS_BELOW if path else BUTTONS_AT_ROOT
    n = len(level.options)
    if n <= room:
        for i, option in enumerate(level.options):
            style = discord.ButtonStyle.success if i in level.leaves else discord.ButtonStyle.primary
            label = shorten(option, LABEL_MAX)
            view.add_item(MoveButton(mid, sid, (*path, i), label=label, style=style, row=i // 5).item)
        shown = ""
    else:
        pages = (n + PAGE - 1) // PAGE
        page = max(0, min(page, pages - 1))
        first = page * PAGE
        choices = [
            discord.SelectOption(label=shorten(level.options[i], OPTION_MAX), value=str(i))
            for i in range(first, min(n, first + PAGE))
        ]
        placeholder = f"Choose… ({first + 1}–{first + len(choices)} of {n})"
        view.add_item(MoveSelect(mid, sid, path, Look(tuple(choices), placeholder, 0)).item)
        for label, target in (("◀ Previous", page - 1), ("Next ▶", page + 1)):
            if 0 <= target < pages:
                view.add_item(MoveButton(mid, sid, path, target, label=label, row=1).item)
        shown = f" (page {page + 1} of {pages})"
    if back is not None:
        view.add_item(
            MoveButton(mid, sid, back, label="‹ Back", style=discord.ButtonStyle.secondary, row=4).item
        )
    trail = " › ".join(level.labels)
    head = f"**Your move:** {trail} › …" if trail else "**Your move** — pick one:"
    tip = "Green buttons play the move at once." if n <= room else "Pick from the list."
    return f"{head}{shown}\n-# {tip}", view


def named_moves(info: MatchInfo, moves: list[Move]) -> list[Move]:
    """The moves with seat numbers in their menu paths ("P2 front card 1") replaced by player names,
    unless two players share a name and two moves would then read the same; in a response window, the
    pass is a plain **Pass** after the rest (first, marked, when it is a lesson's move)."""
    drawn = drawn_names(info)  # labels, not Markdown
    named = [Move(m.key, tuple(seat_refs(step, drawn) for step in m.path)) for m in moves]
    named = named if len({m.path for m in named}) == len(moves) else moves
    passing = next((m for m in named if m.key == PASS), None)
    if info.window and passing is not None:
        rest = [m for m in named if m.key != PASS]
        if passing.path[0].startswith(MARK):  # a lesson's move stays first, marked
            return [Move(PASS, (MARK + "Pass",)), *rest]
        named = [*rest, Move(PASS, ("Pass",))]
    return named


def _require_own_menu(interaction: discord.Interaction) -> None:
    """Refused unless the button is on an ephemeral message (a menu is redrawn in place, never publicly)."""
    message = interaction.message
    if message is None or not message.flags.ephemeral:
        raise SessionError(UNCLAIMED)


def _require_player(info: MatchInfo, user: int) -> None:
    """Refused for a broken game (with its note) and for someone without a seat (or whose an AI plays)."""
    if info.status == BROKEN:
        raise SessionError(info.note or "This game has been stopped; start a new one with /play.")
    own_seat(info, user, NOT_SEATED)


def hand_description(game_id: str, view: dict[str, Any], names: Sequence[str]) -> str:
    """The hand image's description (what a screen reader says), from the owner's own view: that it is
    private, its prompt and their table, in the game's own words (engine/table/describe.py)."""
    return describe.hand_alt(of(get_game(game_id)), view, names)


def rows_of(view: StaticView) -> list[discord.ui.ActionRow[Any]]:
    """A menu's components (menu(): each with its row number) as the action rows of a V2 layout."""
    rows: dict[int, list[discord.ui.Item[Any]]] = {}
    for item in view.children:
        rows.setdefault(item.row or 0, []).append(item)
    return [discord.ui.ActionRow(*items) for _, items in sorted(rows.items())]


def hand_layout(
    hand: discord.ui.Container[Any] | None,
    text: str,
    view: StaticView | None = None,
    what: discord.ui.Button[Any] | None = None,
    hint: discord.ui.Button[Any] | None = None,
) -> StaticLayout:
    """The hand message as a Components V2 layout: the hand (a container holding the image with its alt
    text, or the text board), the text (notes, where the game stands, the menu's prompt, the deadline), then
    the menu's action rows, and `what` (the ❔ of the menu's level) in a row of its own below them, with
    `hint` (a practice game's 💡 Hint) beside it."""
    layout = StaticLayout()
    if hand is not None:
        layout.add_item(hand)
    layout.add_item(discord.ui.TextDisplay(text or "…"))
    for row in rows_of(view) if view is not None else []:
        layout.add_item(row)
    if what is not None and view is not None:
        layout.add_item(discord.ui.ActionRow(what, *([hint] if hint is not None else [])))
    return layout


def _hint_for(info: MatchInfo) -> discord.ui.Button[Any] | None:
    """A practice game's 💡 Hint (hints always on in practice); None for any other game (/game hint)."""
    return HintButton(info.id).item if practice(info.options) else None


def kept_hand(message: discord.Message | None) -> discord.ui.Container[Any] | None:
    """The hand a V2 hand message shows (its container, image or text board), to keep while the menu moves
    to another level; None for a message from before Components V2 (its image stays as an attachment)."""
    if message is None or not message.flags.components_v2:
        return None
    found = StaticLayout.of(message).children
    return next((item for item in found if isinstance(item, discord.ui.Container)), None)


def message_text(message: discord.Message) -> str:
    """A message's words: its content, or a V2 message's text displays (in containers too)."""
    if not message.flags.components_v2:
        return message.content
    items = StaticLayout.of(message).walk_children()
    return "\n".join(item.content for item in items if isinstance(item, discord.ui.TextDisplay))


def message_rows(message: discord.Message) -> list[dict[str, Any]]:
    """A message's action rows as Discord sends them (a V2 message's top-level rows: the menu's)."""
    rows: list[Any] = [c.to_dict() for c in message.components if isinstance(c, discord.ActionRow)]
    return rows


async def hand_message(
    interaction: discord.Interaction,
    mid: int,
    note: str = "",
    played: bool = False,
    seen: SeatSnapshot | None = None,
) -> dict[str, Any]:
    """The keyword arguments of the ephemeral hand message (hand_layout, and its attachments), from the
    person's snapshot (`seen`, or one read now): the private hand image with its alt text from their own
    view, or for a person who chose /notify board:text the text board instead; the notes, where the game
    stands and the deadline; the menu. Just after a move (`played`) that leaves the player nothing to do, no
    image: the next look is a press away, and drawing one nobody waits for was a third of the drawing under
    load (bench/load.py). No content nor embed: an edit of a hand message from before Components V2 clears
    them, which turns it into a V2 message."""
    user = interaction.user.id
    if seen is None or seen.view is None:  # read now (refused as view_for is: a broken or undealt game)
        seen = await services_of(interaction).sessions.snapshot(mid, user)
    info, moves, private = seen.info, named_moves(seen.info, seen.moves), seen.view
    _require_player(info, user)
    files: list[discord.File] = []
    services = services_of(interaction)
    prefs, settings = services.prefs, services.settings
    lines = [note] if note else []
    if guide := lesson_text(info, seen.lesson):  # a practice game: what its guide says now
        lines.append(guide)
    view: StaticView | None = None
    if info.over:
        lines.append("This game is over.")
    elif moves:
        text, view = menu(mid, info.state_id, moves)
        if played:
            lines.append("↪️ **It's your move again.**")
        if info.window:
            lines.append(f"**{info.window}** — play one, or press **Pass** to let it go.")
        lines.append(text)
        since = None
        if info.guild_id is not None:
            since = await settings.clock_start(info, await settings.of(info.guild_id))
        if deadline := settings.deadline_line(info, since):  # when a window passes, when the turn runs out
            lines.append(deadline)
        if info.window:
            setting = await prefs.windows(info.guild_id, user)
            lines.append(f"-# Your response windows: {WINDOW_WORDS[setting]} (change it: `/notify windows:`)")
        if seen.can_undo and _room_below(view):
            view.add_item(UndoButton(mid, info.state_id, row=4).item)
    else:
        waiting = ", ".join(who(info, s) for s in info.to_act) or "nobody"
        if not played:
            again = "Press *My hand & moves* again when it is."
            lines.append(f"It's not your turn — waiting for {waiting}. {again}")
        else:  # written once every step after the move has settled: the next to act, as the board shows
            thinking = services.sessions.ai_task(mid) is not None
            now = " (thinking: the board will show the answer)" if thinking else ""
            again = "Press *My hand & moves* again to see your hand, or when it is your turn."
            lines.append(f"Next: {waiting}{now}. {again}")
    (text,) = fits(["\n".join(lines)])
    hand: discord.ui.Container[Any] | None = None
    if (moves or info.over or not played) and await prefs.board_style(user) == TEXT:
        words = board_text(info, private).splitlines()  # instead of the image, in the room the text leaves
        hand = discord.ui.Container(discord.ui.TextDisplay(fit(words, V2_TEXT - len(text)) or "…"))
    elif moves or info.over or not played:
        theme = await prefs.theme(user) or await settings.theme(info.guild_id)
        png = await services.drawing.hand(info.game_id, private, drawn_names(info), info.options, theme)
        mine = hand_description(info.game_id, private, drawn_names(info))
        files.append(discord.File(io.BytesIO(png), "hand.png", description=mine))
        image = discord.MediaGalleryItem(HAND_URL, description=mine)
        galleries: list[discord.ui.MediaGallery[Any]] = [discord.ui.MediaGallery(image)]
        if practice(info.options) and info.channel_id is None:  # no board in a channel: it is shown here
            public = await services.sessions.view_for(mid, None)
            board = await services.drawing.board(info.game_id, public, drawn_names(info), info.options, theme)
            alt = describe.board_alt(of(get_game(info.game_id)), info.title, public, drawn_names(info))
            files.append(discord.File(io.BytesIO(board), "board.png", description=alt))
            galleries.insert(0, discord.ui.MediaGallery(discord.MediaGalleryItem(BOARD_URL, description=alt)))
        hand = discord.ui.Container(*galleries)
    what = WhatButton(mid, info.state_id, ()).item if view is not None else None
    layout = hand_layout(hand, text, view, what, _hint_for(info))
    if info.over and practice(info.options):
        layout.add_item(discord.ui.ActionRow(real_table_button(info.id)))
    return {"view": layout, "attachments": files, "content": None, "embed": None}


class HandButton(
    Rebuilt, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ag:hand:(?P<mid>\d+):(?P<sid>\d+)"
):
    """The board's "My hand & moves": a new ephemeral message with the hand and the menu."""

    def __init__(self, mid: int, sid: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="My hand & moves",
                emoji="🃏",
                style=discord.ButtonStyle.primary,
                custom_id=f"ag:hand:{mid}:{sid}",
            )
        )
        self.mid, self.sid = mid, sid

    async def callback(self, interaction: discord.Interaction) -> None:
        """Refuse strangers at once; otherwise defer (rendering) and send the hand."""

        async def work() -> None:
            seen = await services_of(interaction).sessions.snapshot(
                self.mid, interaction.user.id, broken_ok=True
            )
            _require_player(seen.info, interaction.user.id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            kwargs = await hand_message(interaction, self.mid, seen=seen)
            files = kwargs["attachments"]
            await interaction.followup.send(ephemeral=True, view=kwargs["view"], files=files)

        await guarded_press(interaction, self.mid, work)


async def _refresh(
    interaction: discord.Interaction,
    mid: int,
    note: str,
    played: bool = False,
    seen: SeatSnapshot | None = None,
) -> None:
    """Redraw the ephemeral message in place (after a deferred update) with a fresh hand and menu (from
    `seen` when it is still the match as it is)."""
    kwargs = await hand_message(interaction, mid, note, played, seen)
    await interaction.edit_original_response(**kwargs)


def claims(kind: type[discord.ui.DynamicItem[Any]], custom_id: str) -> bool:
    """Whether a custom_id is one of this kind of component's (its template matches the whole of it)."""
    return kind.__discord_ui_compiled_template__.fullmatch(custom_id) is not None


MenuItem = tuple[str, str, int, tuple[tuple[str, str], ...]]  # custom_id, label, style, select options


def _menu_items(rows: list[dict[str, Any]]) -> list[MenuItem]:
    """The move-menu components of a message, in order."""
    items: list[MenuItem] = []
    for row in rows:
        for c in row.get("components", []):
            cid = str(c.get("custom_id", ""))
            if claims(MoveButton, cid) or claims(MoveSelect, cid):
                options = tuple((str(o.get("label")), str(o.get("value"))) for o in c.get("options", []))
                items.append((cid, str(c.get("label", "")), int(c.get("style", 0)), options))
    return items


def _drawn_at(items: list[MenuItem]) -> tuple[tuple[int, ...], int]:
    """The level (option path) and page a menu's components were drawn for."""
    for cid, _, _, options in items:
        if claims(MoveSelect, cid) and options:
            return _parse_path(cid.split(":")[4]), int(options[0][1]) // PAGE
    paths = [_parse_path(cid.split(":")[4]) for cid, *_ in items if cid.count(":") == 4]
    deepest = max(paths, key=len, default=())
    return deepest[:-1], 0


async def _still_good(interaction: discord.Interaction, info: MatchInfo, moves: list[Move], sid: int) -> bool:
    """Whether a menu drawn at an older state_id may still be used: only other seats moved since (a
    simultaneous choice), and the menu pressed is the one this seat would be shown now (same moves)."""
    message = interaction.message
    sessions = services_of(interaction).sessions
    if message is None or not await sessions.only_others_moved(info.id, interaction.user.id, sid):
        return False
    return drawn_again(info.id, sid, moves, message_text(message), message_rows(message))


def drawn_again(mid: int, sid: int, moves: list[Move], content: str, rows: list[dict[str, Any]]) -> bool:
    """Whether a menu message (its content and components) is exactly what `moves` draw at state `sid`."""
    drawn = _menu_items(rows)
    if not drawn:
        return False
    path, page = _drawn_at(drawn)
    text, view = menu(mid, sid, moves, path, page)
    return _menu_items(view.to_components()) == drawn and text in content


async def _press(
    interaction: discord.Interaction, mid: int, sid: int, path: tuple[int, ...], page: int
) -> None:
    """Show the next level, play a complete move, or redraw an out-of-date menu."""
    pressed = time.perf_counter()
    _require_own_menu(interaction)
    sessions = services_of(interaction).sessions
    user = interaction.user.id
    seen = await sessions.snapshot(mid, user, broken_ok=True)  # the one read of a press
    info = seen.info
    _require_player(info, user)
    moves = named_moves(info, seen.moves)
    level = None
    if info.state_id == sid or await _still_good(interaction, info, moves, sid):
        level = walk(moves, path)
    if level is None:
        await interaction.response.defer()
        await _refresh(interaction, mid, STALE, seen=seen if sessions.fresh(seen) else None)
        return
    if level.move is None or level.options:
        text, view = menu(mid, info.state_id, moves, path, page)  # the hand stays; the text is the prompt's
        if seen.lesson is not None:  # the step's words stay while the learner finds its move
            text = "\n".join([*step_lines(seen.lesson, bold="**"), text])
        what = WhatButton(mid, info.state_id, path).item
        layout = hand_layout(kept_hand(interaction.message), text, view, what, _hint_for(info))
        await interaction.response.edit_message(view=layout, content=None, embed=None)
        return
    await interaction.response.defer()  # committing, rendering: may take a moment
    try:
        result = await sessions.submit(mid, user, level.move.key, sid, seen=True)
    except StaleState:
        await _refresh(interaction, mid, STALE)
        return
    ops.MOVE_SECONDS.observe(time.perf_counter() - pressed)
    note = f"✅ You played **{level.move.label}**."
    if result.over:
        note += " That was the last move — see the result on the board."
    else:  # the reply tells where the game stands once the passes, lone steps and AI answers are played
        await sessions.settled(mid, SETTLE_WAIT)
    after = result.seen if result.seen is not None and sessions.fresh(result.seen) else None
    await _played(interaction, mid, note, after)


async def _played(interaction: discord.Interaction, mid: int, note: str, seen: SeatSnapshot | None) -> None:
    """After a committed move: the fresh menu (from `seen`, the mover's snapshot, when nothing moved since),
    or (when Discord or the database fails us) at least that the move was played, never "please try again"
    or "not played", which would invite them to play it twice."""
    try:
        await _refresh(interaction, mid, note, played=True, seen=seen)
    except (discord.HTTPException, StoreError) as e:
        log.warning("match %s: the menu after a move could not be redrawn: %s", mid, e)
        with contextlib.suppress(discord.HTTPException):
            await reply(interaction, f"{note} Press **My hand & moves** on the board for your next move.")


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ag:mv:(?P<mid>[0-9]+):(?P<sid>[0-9]+):" + PATH + r"(?::p(?P<page>[0-9]+))?",
):
    """A button of the move menu: an option, Back, or a page of a long list."""

    def __init__(
        self,
        mid: int,
        sid: int,
        path: tuple[int, ...],
        page: int = 0,
        *,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        cid = f"ag:mv:{mid}:{sid}:{_path_text(path)}" + (f":p{page}" if page else "")
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=cid, row=row))
        self.mid, self.sid, self.path, self.page = mid, sid, path, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MoveButton:
        """Rebuild from the custom_id."""
        return cls(int(match["mid"]), int(match["sid"]), _parse_path(match["path"]), int(match["page"] or 0))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Navigate or play."""
        await guarded_press(
            interaction,
            self.mid,
            lambda: _press(interaction, self.mid, self.sid, self.path, self.page),
            move=True,
        )


class MoveSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"ag:ms:(?P<mid>[0-9]+):(?P<sid>[0-9]+):" + PATH,
):
    """The select menu of a level with more options than buttons fit; its values are option indexes."""

    def __init__(self, mid: int, sid: int, path: tuple[int, ...], look: Look = BARE) -> None:
        super().__init__(look.select(f"ag:ms:{mid}:{sid}:{_path_text(path)}"))
        self.mid, self.sid, self.path = mid, sid, path

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MoveSelect:
        """Rebuild from the custom_id."""
        return cls(int(match["mid"]), int(match["sid"]), _parse_path(match["path"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Go one level down with the chosen option."""
        values = values_of(interaction)
        choice = int(values[0]) if values and values[0].isdigit() else -1
        await guarded_press(
            interaction,
            self.mid,
            lambda: _press(interaction, self.mid, self.sid, (*self.path, choice), 0),
            move=True,
        )


WHAT_MOST = 8  # moves ❔ explains at once; more: open a group first
CONTENT_MOST = 2000  # Discord: a message's content (characters)


def what_they_do(seen: SeatSnapshot, path: tuple[int, ...]) -> str:
    """The ❔ answer: each move under the menu level at `path` (the whole menu at the top), by its menu path,
    with what it does in plain words (present.move_words: the game's explain, the cards' texts), from the
    player's own view."""
    info = seen.info
    named = named_moves(info, seen.moves)
    level = walk(named, path) or walk(named, ())
    prefix = level.labels if level is not None else ()
    raw = {m.key: m for m in seen.moves}
    under = [m for m in named if m.path[: len(prefix)] == prefix]
    present, names = of(get_game(info.game_id)), drawn_names(info)
    lines = ["❔ **What these moves do**" + (f" ({escape_markdown(' › '.join(prefix))})" if prefix else "")]
    told: set[str] = set()  # a card's text once, however many of these moves name it
    for move in under[:WHAT_MOST]:
        path_now = tuple(unmarked(label) for label in raw[move.key].path)
        words = [w for w in move_words(present, seen.view, move.key, path_now, names) if w not in told]
        told.update(words)
        said = " ".join(with_names(info, w) for w in words)
        lines.append(f"• **{escape_markdown(' › '.join(move.path))}** — {said}")
    if len(under) > WHAT_MOST:
        lines.append(f"-# …and {len(under) - WHAT_MOST} more: open one of the groups, then press ❔ there.")
    (text,) = fits(["\n".join(lines)], CONTENT_MOST)
    return text


class WhatButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ag:what:(?P<mid>[0-9]+):(?P<sid>[0-9]+):" + PATH,
):
    """The hand menu's ❔: what the moves of the menu's level do, in a message of its own (the menu stays)."""

    def __init__(self, mid: int, sid: int, path: tuple[int, ...]) -> None:
        cid = f"ag:what:{mid}:{sid}:{_path_text(path)}"
        super().__init__(discord.ui.Button(label="❔ What do these do?", custom_id=cid))
        self.mid, self.sid, self.path = mid, sid, path

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> WhatButton:
        """Rebuild from the custom_id."""
        return cls(int(match["mid"]), int(match["sid"]), _parse_path(match["path"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Explain the level's moves, or say the menu is out of date."""

        async def work() -> None:
            user = interaction.user.id
            seen = await services_of(interaction).sessions.snapshot(self.mid, user, broken_ok=True)
            _require_player(seen.info, user)
            if seen.info.state_id != self.sid or not seen.moves:
                raise SessionError(
                    "That menu is out of date — the game has moved on. Open *My hand & moves* again."
                )
            await reply(interaction, what_they_do(seen, self.path))

        await guarded_press(interaction, self.mid, work)


def _room_below(view: StaticView) -> bool:
    """Whether the menu's last row has room for one more button."""
    return len(view.children) < 25 and sum(1 for item in view.children if item.row == 4) < 5


class UndoButton(
    Rebuilt,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ag:undo:(?P<mid>[0-9]+):(?P<sid>[0-9]+)",
):
    """The hand menu's Undo: take back your last move, then redraw the hand and menu in place."""

    def __init__(self, mid: int, sid: int, *, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label="↩ Undo", custom_id=f"ag:undo:{mid}:{sid}", row=row))
        self.mid, self.sid = mid, sid

    async def callback(self, interaction: discord.Interaction) -> None:
        """Undo at the state the menu was drawn at; an out-of-date menu is redrawn instead."""

        async def work() -> None:
            _require_own_menu(interaction)
            sessions = services_of(interaction).sessions
            user = interaction.user.id
            _require_player(await sessions.get(self.mid), user)
            await interaction.response.defer()
            try:
                await sessions.undo(self.mid, user, self.sid)
                note = "↩️ Your last move was taken back."
            except StaleState:
                note = STALE
            except SessionError as refusal:
                note = str(refusal)
            await _refresh(interaction, self.mid, note)

        await guarded_press(interaction, self.mid, work)


async def answer_unclaimed(
    interaction: discord.Interaction, components: tuple[type[discord.ui.DynamicItem[Any]], ...]
) -> None:
    """Answer a button or menu press whose custom_id no registered component matches (none would)."""
    if interaction.type != discord.InteractionType.component:
        return
    custom_id = custom_id_of(interaction)
    if any(claims(c, custom_id) for c in components):
        return
    await reply(interaction, UNCLAIMED)
