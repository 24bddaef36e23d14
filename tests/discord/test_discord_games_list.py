"""Where a person's games stand (issue 22, item 4): /games lists a person's games on this server, privately,
with whose move it is, since when and a link to each board; the DM reminder carries the same link; a
finished board's Rematch opens one lobby like the game, for its players only, after a restart too."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from bot.discord.mine import DESCRIPTION_MAX, fit
from bot.sessions import SessionError, SessionManager
from bot.sessions.decks import BROUGHT, SAVED
from bot.store import SqliteStore
from engine.games.ophidian.cards import TEAMS
from engine.games.ophidian.decks import BOOK, deck_of
from engine.registry import games, register
from tests.discord.test_discord_decks import DeckCard
from tests.discord_harness import Harness
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.models import DM, FakeMember

LINE = re.compile(r"^\*\*(?P<title>[^*]+)\*\* #(?P<id>\d+) — (?P<rest>.*)$")
LINK = re.compile(r"https://discord\.com/channels/(\d+)/(\d+)(?:/(\d+))?")
HOUR = 3600.0
AI_MENU = "Add an AI of a chosen level…"


async def _open(h: Harness, host: FakeUser, channel: FakeChannel, **options: Any) -> tuple[FakeChannel, int]:
    """/play in a channel (a lobby in a new thread): the thread and the match id."""
    fake = h.fake
    before = {t.id for t in fake.threads(channel)}
    await (await fake.slash(host, channel, "play", options)).wait_reply()
    thread = await fake.wait_until(
        lambda: next(
            (t for t in fake.threads(channel) if t.id not in before and fake.message_count(t.id)), None
        ),
        what="the lobby thread",
    )
    info = await h.sessions.match_for_channel(thread.id)
    assert info is not None
    return thread, info.id


async def _lobby(h: Harness, mid: int) -> FakeMessage:
    """The lobby message of a match, as it is now (its place is stored just after it is posted)."""
    for _ in range(100):
        if (where := await h.store.lobby_message(mid)) is not None:
            return h.fake.message(where[1])
        await asyncio.sleep(0.01)
    raise AssertionError(f"no lobby message for match {mid}")


async def _games(h: Harness, user: FakeUser, channel: FakeChannel) -> tuple[FakeMessage, dict[int, str]]:
    """/games: the private answer and its lines by game id, in their order."""
    answer = await (await h.fake.slash(user, channel, "games")).wait_reply()
    assert answer.ephemeral and answer.visible_to == user.id
    lines = {}
    for line in (answer.embeds[0]["description"] if answer.embeds else "").splitlines():
        if m := LINE.match(line):
            lines[int(m["id"])] = line
    return answer, lines


def _link(h: Harness, line: str) -> tuple[int, int, int]:
    """The guild, channel and message a line links to; the message exists."""
    m = LINK.search(line)
    assert m is not None, line
    guild, channel, message = int(m[1]), int(m[2]), int(m[3] or 0)
    assert message and h.fake.find_message(message) is not None, line
    return guild, channel, message


def _dms(fake: FakeDiscord, user: FakeUser) -> list[FakeMessage]:
    return [
        m for c in fake.channels.values() if c.type == DM and c.recipient is user for m in fake.messages[c.id]
    ]


async def test_games_lists_a_persons_games_with_whose_move_and_a_link_to_each_board(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    other = fake.add_guild("Elsewhere")
    far = fake.add_channel("general", other)
    other.members[alice.id] = FakeMember(alice)
    async with Harness.started(fake, tmp_path) as h:
        empty, none = await _games(h, alice, fake.channel)
        assert not none and "not in any game" in empty.text()

        game_a, a = await _open(h, alice, fake.channel, game="omphala")
        await h.press(bob, await _lobby(h, a), "Join")
        await h.press(alice, await _lobby(h, a), "Start")
        await h.settle()
        h.clock[0] += HOUR
        await h.play_move(alice, game_a)  # alice has chosen: bob's move in A
        await h.settle()
        assert (await h.sessions.get(a)).users_to_act == (bob.id,)
        h.clock[0] += HOUR
        game_b, b = await _open(h, bob, fake.channel, game="omphala")
        await h.press(alice, await _lobby(h, b), "Join")
        await h.press(bob, await _lobby(h, b), "Start")  # everyone at once in B
        _, lobby_c = await _open(h, alice, fake.channel, game="ophion")
        far_thread, d = await _open(h, alice, far, game="omphala")  # alice's game on another server
        await h.press(alice, await _lobby(h, d), "Add AI")
        await h.press(alice, await _lobby(h, d), "Start")
        await h.settle()

        for restarted in (False, True):
            answer, lines = await _games(h, alice, fake.channel)
            assert list(lines) == [b, a, lobby_c], lines  # her move first, then the longest waiting; lobbies
            assert "**your move** (with" in lines[b] and bob.mention in lines[b]
            assert f"{bob.mention} to move" in lines[a] and "your move" not in lines[a]
            info_a = await h.sessions.get(a)
            assert f"⏳ <t:{int(info_a.updated_at)}:R>" in lines[a]
            for mid, thread in ((a, game_a), (b, game_b)):
                assert _link(h, lines[mid]) == (fake.guild.id, thread.id, h.board(thread).id)
            assert _link(h, lines[lobby_c])[2] == (await _lobby(h, lobby_c)).id
            assert "Lobbies you sit in (1)" in answer.text() and "Ophion" in lines[lobby_c]
            assert d not in lines and not answer.mention_ids
            _, bobs = await _games(h, bob, game_a)
            assert list(bobs) == [a, b] and all("**your move**" in x for x in bobs.values())  # longest first
            _, elsewhere = await _games(h, alice, far)
            assert list(elsewhere) == [d] and "**your move**" in elsewhere[d]
            assert _link(h, elsewhere[d]) == (other.id, far_thread.id, h.board(far_thread).id)
            if not restarted:
                await h.restart()


def test_a_long_list_stays_within_discords_limit_and_counts_the_rest() -> None:
    games = [f"**Ophion** #{i} — **your move** · " + "x" * 100 for i in range(60)]
    lobbies = [f"**Omphala** #{i} — 1/6 seated" for i in range(100, 105)]
    text = fit([("**Games**", games), ("**Lobbies you sit in**", lobbies)])
    shown = [line for line in text.splitlines() if LINE.match(line)]
    assert len(text) <= DESCRIPTION_MAX and 20 < len(shown) < 60
    assert text.endswith(f"…and {65 - len(shown)} more.") and "Lobbies" not in text
    short = fit([("**Games**", games[:2]), ("**Lobbies you sit in**", [])])
    assert short.splitlines() == ["**Games**", *games[:2]]


async def test_the_dm_reminder_links_to_the_board(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        await (await fake.slash(bob, fake.channel, "notify", {"dms": "on"})).wait_reply()
        thread, mid = await _open(h, alice, fake.channel, game="omphala")
        await h.press(bob, await _lobby(h, mid), "Join")
        await h.press(alice, await _lobby(h, mid), "Start")
        await h.settle()
        await h.play_move(alice, thread)
        await h.settle()
        assert await h.bot.timers.tick(h.clock[0] + 12 * HOUR + 60) == 1
        (dm,) = _dms(fake, bob)
        assert "Reminder" in dm.text() and f"game #{mid}" in dm.text()
        assert _link(h, dm.content) == (fake.guild.id, thread.id, h.board(thread).id)


async def test_rematch_opens_one_lobby_like_the_game_for_its_players_and_it_plays(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    people = {alice.id: alice, bob.id: bob}
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await _open(h, alice, fake.channel, game="omphala", seats=3)
        await h.press(bob, await _lobby(h, mid), "Join")
        await (await fake.select(alice, await _lobby(h, mid), ["easy"], placeholder=AI_MENU)).wait_reply()
        await h.press(alice, await _lobby(h, mid), "Start")
        await h.settle()
        await h.sessions.forfeit(mid, alice.id)
        await h.settle()
        final = h.board(thread)
        assert [b["label"] for b in final.buttons] == ["Rematch", "Log", "Rules"] and thread.archived
        await h.restart()

        refused = await h.press(carol, final, "Rematch")
        assert refused.ephemeral and "Only the players" in refused.text()
        assert await h.store.rematch_id(mid) is None
        threads = len(fake.threads(fake.channel))
        presses = [
            await fake.click(bob, final, "Rematch"),
            await fake.click(alice, final, "Rematch"),
        ]  # at once
        answers = [await ix.wait_reply() for ix in presses]
        new = await h.store.rematch_id(mid)
        assert new is not None and len(fake.threads(fake.channel)) == threads + 1  # one lobby, one thread
        opened = [i for i, m in enumerate(answers) if "Your rematch is open" in m.text()]
        assert len(opened) == 1 and f"game #{new}" in answers[opened[0]].content
        assert (
            "already open" in answers[1 - opened[0]].text()
            and f"game #{new}" in answers[1 - opened[0]].text()
        )
        host, other = (bob, alice) if opened == [0] else (alice, bob)

        info = await h.sessions.get(new)
        assert info.host_user == host.id and info.options == {"seats": 3}
        assert [(s.user_id, s.ai) for s in info.seats] == [(alice.id, None), (bob.id, None), (None, "easy")]
        new_thread = fake.threads(fake.channel)[-1]
        assert info.channel_id == new_thread.id and new_thread.id != thread.id
        lobby = await _lobby(h, new)
        assert lobby.channel_id == new_thread.id and lobby.pinged(other) and not lobby.pinged(host)
        assert "Bot 1 · easy" in lobby.text() and "(host)" in lobby.text()
        again = await h.press(carol, final, "Rematch")
        assert "Only the players" in again.text()

        await h.press(host, lobby, "Start")
        await h.settle()
        playing = await h.press(other, final, "Rematch")
        assert "is being played" in playing.text() and f"game #{new}" in playing.text()
        done = await h.play_until_over(new, new_thread, people)
        assert done.status == "finished"
        await h.settle()
        assert h.board(new_thread).button("Rematch")["custom_id"] == f"ag:rematch:{new}"


async def test_a_rematch_keeps_each_persons_pick_and_opens_in_place_when_the_server_says_so(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    admin = fake.add_user("admin", admin=True)
    choose = "Choose your Commander (random if none)"
    async with Harness.started(fake, tmp_path) as h:
        await (await fake.slash(admin, fake.channel, "config", {"thread_mode": "here"})).wait_reply()
        await (await fake.slash(alice, fake.channel, "play", {"game": "siege_of_olympus"})).wait_reply()
        info = await h.sessions.match_for_channel(fake.channel.id)
        assert info is not None
        mid = info.id
        await h.pick_choice(alice, await _lobby(h, mid), "gaia", choose)
        await h.press(bob, await _lobby(h, mid), "Join")
        await h.pick_choice(bob, await _lobby(h, mid), "typhon", choose)
        await h.press(alice, await _lobby(h, mid), "Start")
        await h.settle()
        await h.sessions.forfeit(mid, bob.id)
        await h.settle()
        final = h.board(fake.channel)

        opened = await h.press(bob, final, "Rematch")
        new = await h.store.rematch_id(mid)
        assert new is not None and f"game #{new}" in opened.text() and not fake.threads(fake.channel)
        info = await h.sessions.get(new)
        picks = {str(alice.id): {"commander": "gaia"}, str(bob.id): {"commander": "typhon"}}
        assert info.channel_id == fake.channel.id and info.options == {"picks": picks}
        lobby = await _lobby(h, new)
        assert lobby.channel_id == fake.channel.id and lobby.pinged(alice) and not lobby.pinged(bob)
        await h.press(bob, lobby, "Start")
        await h.settle()
        dealt = await h.sessions.get(new)
        assert dealt.status == "active"
        assert dealt.options == {"seat_choices": [{"commander": "gaia"}, {"commander": "typhon"}]}
        assert [p["commander"] for p in (await h.sessions.view_for(new, None))["players"]] == [
            "gaia",
            "typhon",
        ]


async def test_a_rematch_brings_a_saved_deck_again_and_one_rematch_at_a_time(tmp_path: Path) -> None:
    """In the session manager: a saved deck a person was dealt with comes to the rematch lobby again (checked
    anew), beside the others' picks; a second rematch gives the first; strangers are refused."""
    register(DeckCard())
    store = SqliteStore(str(tmp_path / "decks.db"))
    await store.open()
    s = SessionManager(store)
    try:
        await s.save_deck(1, "deckcard", "Tide v2", BOOK.example)
        first = await s.create(10, 7, "deckcard", 1, host_name="Ann")
        await s.join(first.id, 2, "Bo")
        await s.pick_deck(first.id, 1, "Tide v2")
        await s.pick(first.id, 2, "team", "mind_and_marrow")
        await s.start(first.id, 1)
        with pytest.raises(SessionError, match="finished"):
            await s.rematch(first.id, 1, 11)
        await s.forfeit(first.id, 2)
        with pytest.raises(SessionError, match="Only the players"):
            await s.rematch(first.id, 3, 11)
        again, created = await s.rematch(first.id, 2, 11, host_name="Bo")
        tide = {**deck_of(TEAMS["iron_tide"]), "name": "Tide v2"}
        picks = {"1": {"team": f"{SAVED}Tide v2"}, "2": {"team": "mind_and_marrow"}}
        assert created and (again.host_user, again.channel_id) == (2, 11)
        assert again.options == {"picks": picks, BROUGHT: {"1": tide}}
        assert [(x.user_id, x.name) for x in again.seats] == [(1, "Ann"), (2, "Bo")]
        same, created = await s.rematch(first.id, 1, 12)
        assert not created and same.id == again.id
        await s.start(again.id, 2)
        dealt = await s.get(again.id)
        assert dealt.options == {"seat_choices": [{}, {"team": "mind_and_marrow"}], "decks": [tide, None]}
    finally:
        games().pop(DeckCard.id, None)
        await s.close()
        await store.close()
