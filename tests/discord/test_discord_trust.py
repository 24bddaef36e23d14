"""Async play you can trust (issue 33), through the fake Discord with the toy game (tests/toygame.py, whose
Jeer window always offers Jeer and Pass): the reply to a move is written once the steps after it have
settled, a window at async pace pings the person it waits on (once) and its timeout is a pass whatever
the policy for turns; and, in Ophidian 2350, the holder of The Flow who can only pass is asked, not played
for, when the opponent could not know it was their only move."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.sessions.automatic import forced_in_public, played_for_them
from bot.sessions.types import ASK, AUTO, BY_SETTING
from engine.registry import games
from tests.discord.test_discord_pace import _boards, _draw, _lobby, _start
from tests.discord_harness import HAND, Harness
from tests.fakediscord import FakeDiscord
from tests.hidden_helpers import playout
from tests.toygame import HighCard

MIN = 60.0


async def test_the_reply_is_written_after_the_ai_has_answered(
    toy: HighCard, fake: FakeDiscord, tmp_path: Path
) -> None:
    """Alice against a random AI: her draw opens the AI's window, the AI answers and takes its turn, and the
    move is alice's again (her own turn, or her window after the AI's draw). The reply to her draw is
    written once all that has been played: it says the move is hers again and offers it, never "not your
    turn", and its menu is current (no "out of date" on the next press)."""
    alice = fake.add_user("alice")
    async with Harness.started(fake, tmp_path) as h:
        thread, lobby, mid = await h.open_lobby(alice, toy.id)
        level = "Add an AI of a chosen level…"
        await (await fake.select(alice, fake.message(lobby.id), ["random"], placeholder=level)).wait_reply()
        await h.press(alice, fake.message(lobby.id), "Start")
        await h.settle()
        hand = await h.press(alice, h.board(thread), HAND)
        reply = await h.press(alice, hand, "Draw a card")
        assert "✅ You played **Draw a card**" in reply.text()
        info = await h.sessions.get(mid)
        assert info.state_id > 2 and not info.over  # the AI answered the window and moved
        assert info.users_to_act == (alice.id,)
        assert "It's your move again" in reply.text() and "not your turn" not in reply.text()
        labels = [b["label"] for b in reply.buttons]
        assert "Pass" in labels
        again = await h.press(alice, reply, "Pass")
        assert "✅ You played **Pass**" in again.text() and "out of date" not in again.text()


@pytest.mark.parametrize("policy", ["skip", "ai", "forfeit"])
async def test_an_async_window_pings_once_and_its_timeout_is_a_pass(
    toy: HighCard, fake: FakeDiscord, tmp_path: Path, policy: str
) -> None:
    """At async pace (a 2-hour timeout) bob's window is posted as a new board that pings him once (a
    restart pings nobody again); at the timeout the window passes for him under every policy: no AI takes
    his seat, nobody forfeits, the game goes on."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        await h.windows(ASK, alice, bob)
        await h.config(admin, timeout_minutes=120, timeout_policy=policy)
        thread, lobby, mid = await _lobby(h, alice, bob, toy.id)
        await _start(h, alice, lobby)
        await _draw(h, alice, thread)
        info = await h.sessions.get(mid)
        assert info.window and info.users_to_act == (bob.id,)
        boards = _boards(h, thread)
        assert len(boards) == 2 and boards[-1].pinged(bob) and not boards[-1].pinged(alice)
        assert "the Jeer window passes" in boards[-1].text()  # the deadline line says what the timeout does

        await h.restart()
        await h.settle()
        assert len(_boards(h, thread)) == 2  # no second post, no second ping
        assert sum(1 for m in fake.public(thread) if m.pinged(bob)) == 1
        h.clock[0] = info.updated_at + 121 * MIN
        assert await h.bot.timers.tick() == 1
        await h.settle()
        after = await h.sessions.get(mid)
        assert not after.over and not any(s.is_ai for s in after.seats)
        assert (await h.store.load_log(mid))[-1].key == "pass"
        assert after.users_to_act == (bob.id,) and not after.window  # his own turn now (the toy's rules)
        assert any("⏳ bob let the Jeer window pass." in m.text() for m in _boards(h, thread))


def test_the_flow_holder_who_can_only_pass_is_asked_when_the_opponent_could_not_know() -> None:
    """Ophidian 2350 (seed 106, 69 random moves): Ada holds The Flow and can only pass, but in worlds Bo
    cannot tell apart she has other moves. With *ask me* the bot waits for her; with *pass for me when I
    can't respond* it passes for her, as her setting (so stated); it is never played as a lone move."""
    game = games()["ophidian"]
    s = playout(game, 2, 106, 69)
    seat = game.to_act(s)[0]
    assert [a.kind for a in game.legal_actions(s, seat)] == ["pass"]
    assert not forced_in_public(game, s, seat, 2, 1)
    kwargs = {"players": 2, "seed": 1, "window": False, "can_undo": False}
    assert played_for_them(game, s, seat, setting=ASK, **kwargs) is None
    assert played_for_them(game, s, seat, setting=AUTO, **kwargs) == ("pass", BY_SETTING)
