"""/learn through the fake Discord (issue 38): each game's tutorial in a private thread, the guided steps by
the marked buttons (and once with another move at every guided step: each explained, the game goes on), to
the end with what was learned and a real table one press away; without threads, in the learner's own
messages, resumed after a restart; never in stats."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import ABANDONED, FINISHED
from engine.registry import games
from engine.table import lesson
from tests.discord_harness import HAND, HINT, NAV, Harness, assert_v2_board
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.models import PRIVATE_THREAD

TAUGHT = sorted(gid for gid, game in games().items() if lesson.of(game) is not None)
GUIDED = "📘 Lesson"


def _options(menu: FakeMessage) -> list[str]:
    """The move buttons of a hand menu (not Back, paging, Undo or ❔)."""
    return [b["label"] for b in menu.buttons if b["label"] not in (*NAV, "Undo") and "custom_id" in b]


async def _guided_move(h: Harness, user: FakeUser, menu: FakeMessage, wrong: bool) -> FakeMessage:
    """Play the lesson's marked move from an open hand menu (with `wrong`, another one where the menu offers
    one); the menu after the move."""
    for _ in range(8):
        if "✅ You played" in menu.text():
            return menu
        options = [o for o in _options(menu) if not o.startswith("❔")]
        if menu.selects and not options:
            values = menu.option_values()
            marked = [v for label, v in values.items() if label.startswith(lesson.MARK)]
            others = [v for label, v in values.items() if not label.startswith(lesson.MARK)]
            pick = others[0] if wrong and others else (marked or list(values.values()))[0]
            menu = await (await h.fake.select(user, menu, [pick])).wait_reply()
            continue
        marked = [o for o in options if o.startswith(lesson.MARK.strip())]
        others = [o for o in options if o not in marked]
        assert marked or others, f"no move offered: {menu.text()}"
        if wrong and others:
            pick, wrong = others[0], False  # off the lesson's way once; then the first of each level
        else:
            pick = marked[0] if marked else others[0]
        menu = await h.press(user, menu, pick)
    raise AssertionError(f"no move was played: {menu.text()}")


async def _learn(h: Harness, user: FakeUser, game: str) -> tuple[FakeChannel, int]:
    """/learn in #general: the private thread and the practice match."""
    reply = await (await h.fake.slash(user, h.fake.channel, "learn", {"game": game})).wait_reply(timeout=15)
    assert reply.ephemeral and "private thread" in reply.text(), reply.text()
    thread = h.fake.threads(h.fake.channel)[-1]
    assert thread.type == PRIVATE_THREAD and user.id in thread.thread_member_ids
    info = await h.sessions.match_for_channel(thread.id)
    assert info is not None and lesson.practice(info.options) == game
    return thread, info.id


async def _finish(h: Harness, mid: int, user: FakeUser) -> None:
    """Play the learner's moves after the guided part straight through the session manager (the first
    in menu order), as quickly as the AI answers, until the game ends."""
    for _ in range(3000):
        await h.settle()
        info = await h.sessions.get(mid)
        if info.over:
            return
        moves = await h.sessions.moves_for(mid, user.id)
        await h.sessions.submit(mid, user.id, moves[-1].key, info.state_id)
    raise AssertionError("the practice game did not end")


@pytest.mark.parametrize("wrong", [False, True], ids=["scripted", "wrong"])
@pytest.mark.parametrize("game", TAUGHT)
async def test_each_tutorial_in_a_private_thread(fake: FakeDiscord, tmp_path: Path, game: str, wrong: bool):
    ada = fake.add_user("ada")
    tutorial = lesson.of(games()[game])
    assert tutorial is not None
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await _learn(h, ada, game)
        await h.settle()
        board = h.board(thread)
        assert_v2_board(board, games()[game].title)
        assert f"{GUIDED} 1 of {len(tutorial.steps)}" in board.text() and f"<@{ada.id}>" in board.text()
        said: list[str] = []
        for _ in range(len(tutorial.steps) * 3):
            await h.settle()
            guide = (await h.sessions.snapshot(mid, ada.id)).lesson
            assert guide is not None
            if guide.step is None:
                if guide.done:
                    break
                await h.sessions.submit(mid, ada.id, (await h.sessions.moves_for(mid, ada.id))[-1].key, None)
                continue
            menu = await h.press(ada, h.board(thread), HAND)
            assert GUIDED in menu.text() and "Rule: “" in menu.text()
            assert _options(menu)[0].startswith(lesson.MARK.strip()) or menu.selects
            after = await _guided_move(h, ada, menu, wrong)
            said.append(after.text())
        assert said, "no guided step was offered"
        if wrong:
            assert any("↪ You played" in s and "The lesson suggested" in s for s in said)
        else:
            assert all("✓ That's the move this lesson was about." in s for s in said), [
                s[:300] for s in said if "✓" not in s
            ]
        if wrong:  # the learner stops there (a whole game to its end is the scripted run's)
            await h.sessions.forfeit(mid, ada.id, "the learner stops")
        else:
            await _finish(h, mid, ada)
        await h.settle()
        final = h.board(thread)
        assert "What you learned" in final.text()
        labels = [b["label"] for b in final.buttons]
        assert "Play for real" in labels and "Rematch" not in labels
        assert (await h.sessions.get(mid)).status == FINISHED
        assert (await h.store.user_stats(ada.id)).played == 0  # never counted
        if wrong:
            return
        before = len(fake.threads(fake.channel))
        answer = await h.press(ada, final, "Play for real")
        assert "Your table is open" in answer.text()
        assert len(fake.threads(fake.channel)) == before + 1  # a public lobby thread in #general
        lobby = await h.sessions.match_for_channel(fake.threads(fake.channel)[-1].id)
        assert lobby is not None and lobby.game_id == game and lesson.practice(lobby.options) is None


async def test_without_threads_the_practice_is_in_the_learners_own_messages(
    fake: FakeDiscord, tmp_path: Path
):
    ada, admin = fake.add_user("ada"), fake.add_user("admin", admin=True)
    game = TAUGHT[0]
    async with Harness.started(fake, tmp_path) as h:
        await h.config(admin, thread_mode="here")
        reply = await (await fake.slash(ada, fake.channel, "learn", {"game": game})).wait_reply(timeout=15)
        assert reply.ephemeral and reply.visible_to == ada.id
        assert "plays in place" in reply.text() and GUIDED in reply.text()
        assert reply.alt("board.png") and reply.alt("hand.png")  # the board is shown with the hand
        assert not fake.threads(fake.channel) and not [m for m in fake.public(fake.channel) if m.attachments]
        after = await _guided_move(h, ada, reply, wrong=False)
        assert "✓ That's the move this lesson was about." in after.text()
        # no channel for /game hint: the practice menu has its own (hints are always on in practice)
        assert HINT in [b["label"] for b in after.buttons]
        if (await h.sessions.get((await h.store.user_matches(fake.guild.id, ada.id))[0].id)).users_to_act:
            hint = await (await fake.click(ada, after, HINT)).wait_reply(timeout=30)
            assert hint.ephemeral and "Hint for" in hint.embeds[0]["title"]
        await h.restart()
        again = await (await fake.slash(ada, fake.channel, "learn", {"game": game})).wait_reply(timeout=15)
        assert "where you left it" in again.text()
        infos = await h.store.user_matches(fake.guild.id, ada.id)
        assert len(infos) == 1  # the same practice game, not a second one


async def test_learn_refuses_politely(fake: FakeDiscord, tmp_path: Path):
    ada = fake.add_user("ada")
    async with Harness.started(fake, tmp_path) as h:
        reply = await (
            await fake.slash(ada, fake.channel, "learn", {"game": "nosuchgame"}, check_options=False)
        ).wait_reply()
        assert reply.ephemeral and "no game called" in reply.text()
        assert not await h.store.user_matches(fake.guild.id, ada.id)


async def test_what_these_moves_do(fake: FakeDiscord, tmp_path: Path):
    """ "In the hand menu, a ❔ beside the move list explains the highlighted choice in plain words (the
    card's text and what will happen now)": ❔ at each level says what the level's moves do, the lesson's
    first, from the player's own view, in a message of its own (the menu stays)."""
    ada = fake.add_user("ada")
    async with Harness.started(fake, tmp_path) as h:
        thread, _ = await _learn(h, ada, TAUGHT[0])
        await h.settle()
        menu = await h.press(ada, h.board(thread), HAND)
        what = [b["label"] for b in menu.buttons if b["label"].startswith("❔")]
        assert what == ["❔ What do these do?"]
        answer = await h.press(ada, menu, what[0])
        assert answer.ephemeral and answer.id != menu.id and "What these moves do" in answer.text()
        first = _options(menu)[0].removeprefix(lesson.MARK.strip()).strip()
        assert first in answer.text().split("\n")[1]  # the lesson's move is explained first
        deeper = await h.press(ada, menu, _options(menu)[0])
        if "✅ You played" not in deeper.text():
            assert "❔ What do these do?" in [b["label"] for b in deeper.buttons]
            again = await h.press(ada, deeper, "❔ What do these do?")
            assert "What these moves do" in again.text()


async def test_rules_open_with_how_to_play_on_one_page(fake: FakeDiscord, tmp_path: Path):
    """ "`/rules game:` opens with a one-page picture (turn structure, a sample board with its parts named,
    how to win) and a short summary, with the full text and the rulings behind a button." """
    ada = fake.add_user("ada")
    game = TAUGHT[0]
    async with Harness.started(fake, tmp_path) as h:
        rules = await (await fake.slash(ada, fake.channel, "rules", {"game": game})).wait_reply(timeout=15)
        assert rules.ephemeral and "how to play" in rules.text() and f"/learn game:{game}" in rules.text()
        alt = rules.alt("howto.png")
        assert alt and alt.startswith("How to play") and len(alt) <= 1024
        assert [b["label"] for b in rules.buttons] == ["Full rules", "Rulings"]
        full = await h.press(ada, rules, "Full rules")
        rule_text = lesson.of(games()[game])
        assert rule_text is not None and "the rule text" in full.text()
        assert lesson.in_rules(rule_text.steps[0].rule, full.text()) or full.attachments
        rulings = await h.press(ada, rules, "Rulings")
        assert "Agora's rulings" in rulings.text()


async def test_a_practice_whose_thread_is_gone_is_dealt_anew(fake: FakeDiscord, tmp_path: Path):
    """Someone deleted the private thread: /learn does not point at it; the old practice game is abandoned
    and a new one is dealt in a new thread."""
    ada = fake.add_user("ada")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await _learn(h, ada, TAUGHT[0])
        await h.settle()
        await fake.delete(thread)
        again, new = await _learn(h, ada, TAUGHT[0])
        assert again.id != thread.id and new != mid
        assert (await h.sessions.get(mid)).status == ABANDONED
