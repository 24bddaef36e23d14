"""Words for people: game summaries and rulings (/rules), card answers (/card), the redacted event log."""

from __future__ import annotations

import asyncio
from pathlib import Path

import engine
from bot.store import Store
from engine.core import find_action
from engine.registry import get as get_game

GAMES_DIR = Path(engine.__file__).resolve().parent / "games"

SUMMARIES = {
    "omphala": (
        "**Goal:** end the game with the most cards in your front row "
        "(ties: total power, then a line-up battle).\n"
        "**Setup:** everyone gets 7 cards and secretly puts 2 face down as their front row, all at once; "
        "the other 5 go face up as the back row.\n"
        "**Your turn:** up to 2 actions, then draw (1 card with 2 players, else 2). An action is: draw a "
        "card, or use a back-row card by its suit —\n"
        "♣ Club: attack an opponent's front card · ♠ Spade: attack, or steal a back-row card · "
        "♦ Diamond: shield one of your front cards · ♥ Heart: enhance one of your back-row cards.\n"
        "An attack or steal works when your card's power (A=1 … K=13, with its modifier) is **equal or "
        "greater**; the card that succeeded then retires face down to your front row.\n"
        "**End:** when the deck is empty and a full round passes with no change, or nobody can move."
    ),
}

RANK_NAMES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
ACTION_TEXT = {
    "attack": "attack an opponent's front-row card (it falls if your power is equal or greater)",
    "steal": "steal an opponent's back-row card (equal or greater power), modifier and all",
    "shield": "shield one of your own front-row cards (its power adds to the defence)",
    "enhance": "enhance one of your own back-row cards (its power adds to the card)",
}


def summary(game_id: str) -> str:
    """A short, readable summary of a game's rules."""
    game = get_game(game_id)
    text = SUMMARIES.get(game_id, f"{game.title} for {game.min_players}–{game.max_players} players.")
    return f"{text}\n*{game.min_players}–{game.max_players} players.*"


def rulings(game_id: str) -> str:
    """The game's RULINGS.md (how Agora settles what the rule text leaves open), or ""."""
    path = GAMES_DIR / game_id / "RULINGS.md"
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def card_choices(game_id: str) -> list[tuple[str, str]]:
    """(label, code) of every card of a game, e.g. ("K♣ King of Clubs", "KC"); [] for games without cards."""
    if game_id != "omphala":
        return []
    from engine.games.omphala import cards

    out = []
    for code in cards.DECK:
        rank, suit = code[:-1], code[-1]
        out.append((f"{cards.label(code)} {RANK_NAMES.get(rank, rank)} of {cards.SUITS[suit]['name']}", code))
    return out


def card_text(game_id: str, query: str) -> str | None:
    """What a card does, found by code or by (part of) its label; None if there is no such card."""
    choices = card_choices(game_id)
    q = query.strip().casefold()
    hit = next((c for c in choices if q in (c[1].casefold(), c[0].casefold())), None)
    hit = hit or next((c for c in choices if q and q in c[0].casefold()), None)
    if hit is None:
        return None
    from engine.games.omphala import cards

    label, code = hit
    colour = "red" if cards.is_red(code) else "black"
    actions = "\n".join(f"• {a.title()}: {ACTION_TEXT[a]}" for a in sorted(cards.ACTIONS[code]))
    return f"**{label}** — power **{cards.power(code)}**, {colour}.\nIn your back row it can:\n{actions}"


async def event_log(store: Store, match_id: int, viewer: int | None) -> list[str]:
    """Every event of a match that this seat (None = spectator) may read, by replaying its log."""
    record = await store.get_match(match_id)
    if record is None:
        return []
    rows = await store.load_log(match_id)

    def replay() -> list[str]:
        game = get_game(record.game_id)
        state = game.setup(len(record.seats), record.seed, record.options)
        lines: list[str] = []
        for row in rows:
            events = game.apply(state, find_action(game, state, row.seat, row.key))
            lines += [e.text for e in events if e.visible(viewer)]
        return lines

    return await asyncio.to_thread(replay)
