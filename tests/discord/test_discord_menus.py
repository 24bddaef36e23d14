"""Menus longer than the buttons' room: a throwaway "wide" game (40 choices) played through selects."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Any, ClassVar

import pytest

import bot.discord.commands as commands_module
import engine.registry as registry
from engine.core import JSON, Action, Event, IllegalAction, PlayerId
from tests.discord_harness import HAND, NAV, WHAT, Harness
from tests.fakediscord import FakeDiscord

CHOICES = 40


class Wide:
    """Each of two players picks a number from 0 to 39 once; the higher pick wins."""

    id: ClassVar[str] = "wide"
    title: ClassVar[str] = "Wide"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    max_actions: ClassVar[int] = CHOICES

    def setup(self, num_players: int, seed: int, options: JSON | None = None) -> JSON:
        """No picks yet."""
        return {"picks": [None] * num_players}

    def to_act(self, s: JSON) -> tuple[PlayerId, ...]:
        """The first player who has not picked."""
        return tuple(i for i, p in enumerate(s["picks"]) if p is None)[:1]

    def legal_actions(self, s: JSON, player: PlayerId) -> list[Action]:
        """Forty picks."""
        return (
            [Action(player, "pick", (("n", n),)) for n in range(CHOICES)] if player in self.to_act(s) else []
        )

    def apply(self, s: JSON, action: Action) -> list[Event]:
        """Record the pick."""
        if action not in self.legal_actions(s, action.player):
            raise IllegalAction(action.key)
        s["picks"][action.player] = int(action.arg("n"))
        return [Event("pick", f"P{action.player + 1} picks {action.arg('n')}")]

    def returns(self, s: JSON) -> list[float] | None:
        """The higher pick wins (a tie shares)."""
        picks = s["picks"]
        if None in picks:
            return None
        best = max(picks)
        winners = [i for i, p in enumerate(picks) if p == best]
        return [1 / len(winners) if i in winners else 0.0 for i in range(len(picks))]

    def view(self, s: JSON, viewer: PlayerId | None) -> JSON:
        """Everything is public."""
        return {"game": self.id, "viewer": viewer, "picks": list(s["picks"]), "to_act": list(self.to_act(s))}

    def describe(self, s: JSON, action: Action) -> tuple[str, ...]:
        """One level of forty options."""
        return (f"Number {action.arg('n')}",)

    def determinize(self, s: JSON, observer: PlayerId, seed: int) -> JSON:
        """Nothing is hidden."""
        return self.from_json(self.to_json(s))

    def to_json(self, s: JSON) -> JSON:
        """The state is JSON already."""
        return {"picks": list(s["picks"])}

    def from_json(self, data: JSON) -> JSON:
        """The inverse of to_json."""
        return {"picks": list(data["picks"])}


@pytest.fixture
def wide(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the wide game beside the real ones for this test."""
    every: dict[str, Any] = {**registry.games(), "wide": Wide()}
    monkeypatch.setattr(registry, "games", lambda: every)
    monkeypatch.setattr(commands_module, "games", lambda: every)


async def test_select_paging_plays_a_move(fake: FakeDiscord, tmp_path: Path, wide: None) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, lobby, mid = await h.open_lobby(alice, "wide")
        await h.press(bob, lobby, "Join")
        await h.press(alice, fake.message(lobby.id), "Start")
        await h.settle()
        hand = await h.press(alice, h.board(thread), HAND)
        assert not [b for b in hand.buttons if b["label"].startswith("Number")]
        assert len(hand.option_values()) == 25 and "page 1 of 2" in hand.text()
        page2 = await h.press(alice, hand, "Next ▶")
        assert page2.id == hand.id and "Number 39" in page2.option_values()
        assert [b["label"] for b in page2.buttons] == ["◀ Previous", WHAT]
        done = await (await fake.select(alice, page2, [page2.option_values()["Number 39"]])).wait_reply()
        assert "✅ You played **Number 39**" in done.text()
        await h.settle()
        assert bob.id in h.board(thread).mention_ids
        bob_menu = await h.press(bob, h.board(thread), HAND)
        done = await (await fake.select(bob, bob_menu, [bob_menu.option_values()["Number 3"]])).wait_reply()
        await h.settle()
        info = await h.sessions.get(mid)
        assert info.status == "finished" and info.returns == (1.0, 0.0)
        assert "alice" in h.board(thread).text() and "🏆" in h.board(thread).text()


def test_menu_paths_name_the_players() -> None:
    """ "P2 front card 1" in a menu reads as the player's name; a clash of names keeps the seat numbers."""
    from bot.discord.menus import named_moves
    from bot.sessions import MatchInfo, Move
    from bot.store import Seat

    moves = [
        Move("attack:c=KC:p=1:t=0", ("K♣", "Attack", "P2 front card 1")),
        Move("attack:c=KC:p=2:t=0", ("K♣", "Attack", "P3 front card 1")),
    ]

    def table(*seats: Seat) -> MatchInfo:
        return MatchInfo(1, "omphala", "Omphala", "active", 1, 1, "discord", 1, seats, state_id=3)

    info = table(Seat(1, None, "alice"), Seat(2, None, "bob"), Seat(None, "random", "Bot 3"))
    assert [m.path[-1] for m in named_moves(info, moves)] == ["bob front card 1", "Bot 1 front card 1"]
    clash = table(Seat(1, None, "sam"), Seat(2, None, "sam"), Seat(3, None, "sam"))
    assert named_moves(clash, moves) == moves


def test_a_level_with_one_way_on_is_skipped() -> None:
    """Omphala's discard: the only first step is "Discard", so the menu opens on the cards, with no Back."""
    from bot.discord.menus import menu
    from bot.sessions import Move

    moves = [Move(f"discard:c={c}", ("Discard", c)) for c in ("2♣", "3♣", "K♠")]
    text, view = menu(7, 3, moves)
    labels = [getattr(i, "label", None) for i in view.children]
    assert labels == ["2♣", "3♣", "K♠"] and "Discard" in text
    assert [i.custom_id for i in view.children] == ["ag:mv:7:3:0.0", "ag:mv:7:3:0.1", "ag:mv:7:3:0.2"]
    deeper = [
        Move("a", ("K♣", "Attack", "bob front card 1")),
        Move("b", ("K♣", "Attack", "bob front card 2")),
        Move("c", ("Draw a card",)),
    ]
    text, view = menu(7, 3, deeper, (0,))
    assert "Attack" in text and [getattr(i, "label", None) for i in view.children][-1] == "‹ Back"
    assert view.children[-1].custom_id == "ag:mv:7:3:"  # Back skips the one-way "Attack" level


async def test_one_press_reads_the_match_once(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A move press takes the match's lock at most twice (the seat's snapshot, the move) and computes the
    legal moves at most twice (the snapshot's, the next seat's after the move), whatever the board task then
    reads; the counts of each press and of the board task are printed (issue 36)."""
    counts: Counter[tuple[str, str]] = Counter()

    def who() -> str:
        task = asyncio.current_task()
        name = task.get_name() if task is not None else ""
        return "board" if name.startswith("board") else "ai" if name.startswith("ai-") else "press"

    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await h.started_game(alice, bob)
        lock = h.sessions._cache.lock

        def counted_lock(match_id: int) -> Any:
            counts[(who(), "locks")] += 1
            return lock(match_id)

        game = type(registry.get("omphala"))
        legal = game.legal_actions

        def counted_legal(self: Any, s: Any, player: PlayerId) -> list[Action]:
            counts[(who(), "legal")] += 1
            return legal(self, s, player)

        monkeypatch.setattr(h.sessions._cache, "lock", counted_lock)
        monkeypatch.setattr(game, "legal_actions", counted_legal)
        user = alice if alice.id in (await h.sessions.get(mid)).users_to_act else bob
        seen: dict[str, dict[str, int]] = {}

        async def measured(what: str, press: Any) -> Any:
            counts.clear()
            answer = await press
            await asyncio.wait(set(h.bot._under_way) or {asyncio.sleep(0)})  # the press's task has ended
            await h.settle()
            seen[what] = {f"{task} {kind}": n for (task, kind), n in sorted(counts.items())}
            return answer

        hand = await measured("My hand & moves", h.press(user, h.board(thread), HAND))
        option = next(b["label"] for b in hand.buttons if b["label"] not in NAV)
        level = await measured("a menu level", h.press(user, hand, option))
        assert "Your move" in level.text() and level.buttons[-2]["label"] == "‹ Back"  # ❔ below the menu
        leaf = next(b["label"] for b in level.buttons if b["label"] not in NAV)
        done = await measured("the move", h.press(user, level, leaf))
        assert "✅ You played" in done.text()
        with capsys.disabled():
            for what, n in seen.items():
                print(f"\n{what}: {n}")
        assert seen["the move"].get("press locks", 0) <= 2 and seen["the move"].get("press legal", 0) <= 2
        assert seen["My hand & moves"].get("press locks", 0) <= 1
        assert seen["a menu level"].get("press locks", 0) <= 1
