"""The smaller things people hit (issue 22): half-made simultaneous picks, cut prompts, /game status after
the end, "2–2 players", "1 points", both faces of a Gladiator in /card, and out-of-range command options.
Then issue 33, part 6: a person whose seat an AI took is told how to take it back, "1 card", a two-player
forfeit that names the winner, and the takeover's direct message spoken to its reader."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from bot.console import PlayOptions, play
from bot.discord import packs as discord_packs
from bot.discord.common import whole_lines
from bot.discord.menus import drawn_again, menu
from bot.discord.replay import where_it_stands
from bot.discord.texts import card_answer, card_choices
from bot.sessions import MatchInfo, Move
from bot.sessions.packs import ServerPack
from bot.store import PackRecord
from engine.abilities.spec import parse_decks
from engine.carddata import CardDataError
from engine.games.ophelia.cards import CARDS as OPHELIA_CARDS
from engine.games.ophidian import present as ophidian_present
from engine.games.ophidian.cards import BASE, STRATEGY_TYPES, check_arsenal
from engine.packs import Pack
from engine.table.present import CardEntry, Generic, Prompt, article, of, plural, shorten
from render.games.omphala import _cards as omphala_chip
from render.games.ophidian.words import decision_text
from tests.discord.test_discord_async import _dms
from tests.discord_harness import HAND, Harness
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InvalidOption
from tests.siege_helpers import fresh, game
from tests.toygame import HighCard

MIN = 60.0


async def _table(h: Harness, host: FakeUser, *others: FakeUser, game: str = "omphala") -> tuple[Any, int]:
    """A started game of `game` with these people seated."""
    thread, lobby, mid = await h.open_lobby(host, game)
    for user in others:
        await h.press(user, h.fake.message(lobby.id), "Join")
    await h.press(host, h.fake.message(lobby.id), "Start")
    await h.settle()
    return thread, mid


def _options(message: FakeMessage) -> list[str]:
    return [b["label"] for b in message.buttons if b["label"] not in ("‹ Back", "↩ Undo")]


# --- 1. one player finishing never voids another's half-made pick ------------------------------------------
async def test_a_half_made_simultaneous_pick_survives_the_others_moves(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    # Omphala: "each player chooses 2 cards from their hand and places them face down" — all at once.
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await _table(h, alice, bob, carol)
        assert set((await h.sessions.get(mid)).to_act) == {0, 1, 2}
        carol_hand = await h.press(carol, h.board(thread), HAND)  # drawn at state 0, not touched yet
        alice_hand = await h.press(alice, h.board(thread), HAND)
        alice_level2 = await h.press(alice, alice_hand, _options(alice_hand)[0])  # half-made, at state 0
        assert "Your move:" in alice_level2.text()
        await h.play_move(bob, thread)  # bob finishes his pick meanwhile
        await h.settle()
        assert (await h.sessions.get(mid)).state_id == 1
        carol_level2 = await h.press(carol, carol_hand, _options(carol_hand)[0])  # navigating an older menu
        assert "out of date" not in carol_level2.text() and "Your move:" in carol_level2.text()
        assert all(":1:" in b["custom_id"] for b in carol_level2.buttons)  # drawn at the new state
        older = alice_level2.snapshot()
        done = await h.press(alice, alice_level2, _options(alice_level2)[0])  # completing the older pick
        assert "✅ You played" in done.text() and "out of date" not in done.text()
        done = await h.press(carol, carol_level2, _options(carol_level2)[0])
        assert "✅ You played" in done.text()
        await h.settle()
        rows = await h.store.load_log(mid)
        assert [r.seat for r in rows] == [1, 0, 2] and all(r.key.startswith("choose") for r in rows)
        again = await (await fake.click(alice, older, _options(older)[0])).wait_reply()  # her own move since
        assert "out of date" in again.text() and len(await h.store.load_log(mid)) == 3


def test_an_older_menu_counts_only_if_the_seat_would_see_the_same_one_now() -> None:
    moves = [Move("a", ("K♣", "Attack")), Move("b", ("K♣", "Shield")), Move("c", ("Q♦", "Attack"))]
    text, view = menu(7, 3, moves, (0,))
    rows = view.to_components()
    assert drawn_again(7, 3, moves, f"note\n{text}", rows)
    changed = [Move("a", ("K♣", "Attack")), Move("b", ("K♣", "Enhance")), Move("c", ("Q♦", "Attack"))]
    assert not drawn_again(7, 3, changed, text, rows)  # another option under the same index
    assert not drawn_again(7, 3, moves, "**Your move:** Q♦ › …", rows)  # another trail


# --- 3. /game status after the end shows the result ---------------------------------------------------------
async def test_game_status_in_a_finished_games_thread_shows_the_result(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await _table(h, alice, bob)
        await h.sessions.forfeit(mid, bob.id)
        await h.settle()
        status = await (await fake.slash(bob, thread, "game status")).wait_reply()
        assert status.ephemeral and "no game in this channel" not in status.text()
        assert "The game is over" in status.text() and f"game #{mid}" in status.text()
        result = next(t for t in status.text_displays() if t.startswith("**Result:**"))
        assert "alice" in result and "wins" in result
        assert status.attachment("board.png").data[:4] == b"\x89PNG"
        elsewhere = await (await fake.slash(bob, fake.channel, "game status")).wait_reply()
        assert "no game in this channel" in elsewhere.text()  # a channel that never had one


# --- 4. "for 2–2 players" reads "for 2 players" -------------------------------------------------------------
async def test_a_fixed_player_count_reads_as_one_number(fake: FakeDiscord, tmp_path: Path) -> None:
    alice = fake.add_user("alice")
    async with Harness.started(fake, tmp_path) as h:
        _, lobby, _ = await h.open_lobby(alice, "siege_of_olympus")
        assert "Siege of Olympus for 2 players." in lobby.text() and "2–2" not in lobby.text()
        refused = await (
            await fake.slash(alice, fake.channel, "play", {"game": "ophelia", "seats": 3})
        ).wait_reply()
        assert refused.content == "Ophelia is for 2 players."
        omphala = await (
            await fake.slash(alice, fake.channel, "play", {"game": "omphala", "seats": 9})
        ).wait_reply()
        assert omphala.content == "Omphala is for 2 to 6 players."


async def test_the_terminal_and_the_generic_summary_say_2_players(tmp_path: Path) -> None:
    out = io.StringIO()
    opts = PlayOptions(db=str(tmp_path / "c.db"), game="ophidian", players=3, ai_delay=0.0)
    assert await play(opts, io.StringIO(""), out) != 0
    assert "Ophidian 2350 is for 2 players." in out.getvalue()

    class Duel:
        id, title, min_players, max_players = "duel", "Duel", 2, 2

    assert Generic(Duel()).summary == "Duel for 2 players."


# --- 2. a prompt too long keeps its reason: the card name is shortened, never the verb ----------------------
def _prometheus_pick() -> tuple[Any, Any]:
    """Siege of Olympus with Prometheus, the Fire-Bringer using his power: "Once per game: Search the Deck
    for a card and put it in your Hand, then shuffle the Deck." (cards.toml)."""
    s = fresh(commanders=("prometheus", "gaia"))
    power = next(a for a in game.legal_actions(s, 0) if game.describe(s, a)[0] == "Commander's power")
    return s, power


def test_a_long_prompt_shortens_the_card_name_not_the_verb() -> None:
    s, power = _prometheus_pick()
    game.apply(s, power)
    view = game.view(s, 0)
    source = view["decision"]["source_name"]
    assert source == "Prometheus, the Fire-Bringer"
    on_the_hand_page = of(game).prompt(view, ["Alice", "Bob"]).text
    assert on_the_hand_page == "Choose a card to take from the Deck for Prometheus, the Fire-Bringer"
    shorter = shorten(on_the_hand_page, len(on_the_hand_page) - 5, names=(source,))
    assert shorter == "Choose a card to take from the Deck for Prometheus"
    on_the_board = of(game).status(game.view(s, None), ["Alice", "Bob"]).prompt
    assert on_the_board == "Alice: choose a card to take from the Deck for Prometheus, the Fire-Bringer"
    assert (
        shorten(on_the_board, 60, names=(source,))
        == "Alice: choose a card to take from the Deck for Prometheus"
    )
    assert (
        shorten(on_the_board, 40, names=(source,)) == "Alice: choose a card to take from the…"
    )  # whole words
    assert shorten("Antidisestablishmentarianism", 10) == "Antidises…"  # one word alone longer: cut


def test_the_hand_page_draws_the_prompt_with_the_name_shortened(monkeypatch: pytest.MonkeyPatch) -> None:
    """The prompt on the hand image (where "…for Prometheus, the Fire-B…" was cut by pixels) keeps its verb:
    the card's title goes first."""
    from render import kit

    drawn: list[str] = []
    real = kit.draw_text
    monkeypatch.setattr(
        kit, "draw_text", lambda d, xy, text, *a, **k: drawn.append(text) or real(d, xy, text, *a, **k)
    )
    long = "Choose a card from the Deck for Prometheus, the Fire-Bringer " + "and its very long reason " * 2
    kit.hand_page("Siege", "Your hand", 0, Prompt(long, True), [], "", kit.theme(None))
    prompt = next(t for t in drawn if t.startswith("Choose"))
    assert prompt.startswith("Choose a card from the Deck for Prometheus and its") and "Fire-B" not in prompt


def test_a_long_menu_label_is_cut_between_words() -> None:
    s, power = _prometheus_pick()
    path = tuple(game.describe(s, power))
    assert len(path[1]) > 80  # "Prometheus, the Fire-Bringer: Once per game: Search the Deck for a card …"
    _, view = menu(1, 0, [Move(power.key, path)], (0,))
    label = str(view.children[0].label)
    assert len(label) <= 80 and label.endswith("…")
    assert path[1].startswith(label.removesuffix("…")) and path[1][len(label) - 1] == " "  # a whole word


# --- 5. "1 point", "an Ogre" --------------------------------------------------------------------------------
def test_plural_and_article_helpers() -> None:
    assert [plural(n, "point") for n in (0, 1, 2)] == ["0 points", "1 point", "2 points"]
    assert [plural(x, "point") for x in (0.5, 1.0, 1.5)] == ["0.5 points", "1 point", "1.5 points"]
    assert plural(1, "copy", "copies") == "1 copy" and plural(3, "copy", "copies") == "3 copies"
    assert [article(w) for w in ("Ogre", "Goblin", "artifact", "Unit")] == [
        "an Ogre",
        "a Goblin",
        "an artifact",
        "an Unit",  # by its letter: card names are the words this is for
    ]


async def test_stats_and_leaderboard_say_1_point(fake: FakeDiscord, tmp_path: Path) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await _table(h, alice, bob)
        await h.sessions.forfeit(mid, bob.id)
        await h.settle()
        stats = await (await fake.slash(alice, thread, "stats", {"game": "omphala"})).wait_reply()
        assert "1 game played, 1 won (100%), 1 point " in stats.text() and "1 points" not in stats.text()
        board = await (await fake.slash(alice, thread, "leaderboard", {"game": "omphala"})).wait_reply()
        assert f"{alice.mention} — 3.4 · 1/1 won" in board.text()  # by rating now (issue 26), no points
        bob_stats = await (await fake.slash(bob, thread, "stats", {"game": "omphala"})).wait_reply()
        assert "1 game played, 0 won (0%), 0 points" in bob_stats.text()


# --- 6. /card shows both faces of an Ophidian Gladiator -----------------------------------------------------
def test_card_shows_both_faces_of_a_gladiator() -> None:
    low, high = card_answer("ophidian", "brakka_vohl_12"), card_answer("ophidian", "brakka_vohl_34")
    for answer in (low, high, card_answer("ophidian", "Brakka Vohl")):
        assert "Level 1/2" in answer and "Level 3/4" in answer
        assert "While Raging: +1 ADMG." in answer and "While Raging: +2 ADMG and DDMG 1." in answer
    assert high.index("Level 3/4") < high.index("Level 1/2")  # the face asked for first
    assert "Level 1/2" not in card_answer("ophidian", "Pit Hound")  # a one-faced card stays alone
    shown = dict((value, name) for name, value in card_choices("ophidian", "brakka"))
    assert set(shown) == {"brakka_vohl_12", "brakka_vohl_34"}
    assert shown["brakka_vohl_12"].endswith("Level 1/2") and shown["brakka_vohl_34"].endswith("Level 3/4")


# --- 7. numbers out of range are refused politely, by Discord and by the bot --------------------------------
def _numeric_options(options: list[dict[str, Any]], where: str) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for o in options:
        if o.get("type") in (1, 2):
            out += _numeric_options(o.get("options", []), f"{where} {o['name']}")
        elif o.get("type") in (4, 10):
            out.append((f"{where} {o['name']}", o))
    return out


async def test_out_of_range_numbers_are_refused_and_nothing_is_saved(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    admin = fake.add_user("admin", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        numeric = [
            n
            for c in fake.commands.values()
            for n in _numeric_options(c.data.get("options", []), "/" + c.name)
        ]
        assert numeric and all("min_value" in o and "max_value" in o for _, o in numeric), numeric
        with pytest.raises(InvalidOption):  # Discord itself refuses what the command declares
            await fake.slash(admin, fake.channel, "config", {"reminder_minutes": -5})
        before = await h.store.guild_settings(fake.guild.id)
        for values in (
            {"reminder_minutes": -5},
            {"timeout_minutes": 30, "reminder_count": 99},
            {"lobby_hours": -1},
        ):
            ix = await fake.slash(
                admin, fake.channel, "config", values, check_options=False
            )  # an older registration
            answer = await ix.wait_reply()
            assert answer.ephemeral and "must be between 0 and" in answer.text(), answer.text()
            assert "nothing was changed" in answer.text()
        assert await h.store.guild_settings(fake.guild.id) == before  # not even the valid timeout_minutes
        ok = await (await fake.slash(admin, fake.channel, "config", {"reminder_minutes": 0})).wait_reply()
        assert "Settings for this server" in ok.text()
        page = await (
            await fake.slash(admin, fake.channel, "game log", {"page": -2}, check_options=False)
        ).wait_reply()
        assert "`page` must be between 0 and" in page.text()


# --- issue 33, part 6 ---------------------------------------------------------------------------------------
TAKE_BACK = "An AI is playing your seat — press **Take my seat back**"


async def _sleepy_table(h: Harness, policy: str, *people: FakeUser, **config: Any) -> tuple[Any, int]:
    """A started High Card table on a server whose turns time out after an hour under `policy`."""
    admin = h.fake.add_user("admin", admin=True)
    await h.config(admin, reminder_minutes=0, timeout_minutes=60, timeout_policy=policy, **config)
    return await _table(h, *people, game=HighCard.id)  # the toy fixture registers it


async def _time_out(h: Harness) -> None:
    """An hour and a minute later: the timers' policy for whoever is to act."""
    assert await h.bot.timers.tick(h.clock[0] + 61 * MIN) == 1
    await h.settle()


async def test_a_person_whose_seat_an_ai_took_is_told_to_take_it_back(
    toy: HighCard, fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await _sleepy_table(h, "ai", alice, bob, hints="on")
        before = await h.press(alice, h.board(thread), HAND)  # her menu, drawn while she played her seat
        await _time_out(h)
        assert (await h.sessions.get(mid)).seats[0].stands_for == alice.id
        answers = [
            await h.press(alice, h.board(thread), HAND),
            await h.press(alice, before, "Draw a card"),
            await (await fake.slash(alice, thread, "game undo")).wait_reply(),
            await (await fake.slash(alice, thread, "game hint")).wait_reply(),
        ]
        for answer in answers:
            assert answer.ephemeral and TAKE_BACK in answer.text(), answer.text()
            assert [b["custom_id"] for b in answer.buttons] == [f"ag:lb:back:{mid}"]
        stranger = await h.press(carol, h.board(thread), HAND)
        assert "You are not playing in this game" in stranger.text() and not stranger.buttons
        back = await h.press(alice, answers[0], "Take my seat back")
        assert "You play your seat" in back.text()
        assert (await h.sessions.get(mid)).seat_of(alice.id) == 0


async def test_the_takeover_direct_message_speaks_to_its_reader(
    toy: HighCard, fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        await (await fake.slash(alice, fake.channel, "notify", {"dms": "on"})).wait_reply()
        thread, _ = await _sleepy_table(h, "ai", alice, bob)
        await _time_out(h)
        said = next(m for m in fake.public(thread) if "ran out of time" in m.text())
        assert f"unless {alice.mention} presses **Take my seat back**" in said.text()  # the channel: of her
        dms = _dms(fake, alice)
        assert len(dms) == 1 and "You ran out of time" in dms[0].content
        assert (
            "unless you press **Take my seat back**" in dms[0].text() and alice.mention not in dms[0].text()
        )


async def test_a_two_player_forfeit_names_the_winner(
    toy: HighCard, fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob, carol, dan = (fake.add_user(n) for n in ("alice", "bob", "carol", "dan"))
    async with Harness.started(fake, tmp_path) as h:
        thread, mid = await _sleepy_table(h, "forfeit", alice, bob)
        await _time_out(h)
        assert (await h.sessions.get(mid)).note == "alice forfeited (out of time); bob wins."
        assert any(m.content == "⌛ alice forfeited (out of time); bob wins." for m in fake.public(thread))
        assert "alice forfeited (out of time); bob wins." in h.board(thread).text()
        _, three = await _table(h, carol, dan, bob, game=toy.id)
        info = await h.sessions.forfeit(three, dan.id, "out of time")
        assert info.note == "dan forfeited (out of time); the others share the win."


def test_a_count_of_one_card_reads_1_card() -> None:
    one = (CardEntry("x", "Frost Giant", "unit"),)
    pack = Pack("ophelia", "Winter", "", {}, one)
    assert ": 1 card (Frost Giant)" in discord_packs.described(pack, 1)
    assert omphala_chip(1) == "★ 1 card" and omphala_chip(2) == "★ 2 cards"
    view = {
        "viewer": 0,
        "to_act": [0],
        "phase": "wave",
        "decision": {"kind": "bottom", "owe": 1, "players": [0]},
    }
    put = "put 1 card from your hand on the bottom of your Arsenal"
    assert ophidian_present.prompt(view, ["Ann", "Bo"]).text == "P" + put[1:]
    assert decision_text(view, ["Ann", "Bo"]) == f"Ann: {put}"
    strategy = next(c for c, spec in BASE.items() if spec.type in STRATEGY_TYPES)
    assert check_arsenal({strategy: 1})[-1].startswith("1 card: ")
    lone = {"decks": {"d": {"name": "D", "cards": {next(iter(OPHELIA_CARDS)): 1}}}}
    with pytest.raises(CardDataError, match=r": 1 card; a deck has exactly 40"):
        parse_decks(lone, "pack", OPHELIA_CARDS, 40, 3)
    gone = MatchInfo(1, "omphala", "Omphala", "abandoned", None, None, "discord", None, (), 1)
    assert where_it_stands(gone, 1) == "Abandoned after 1 move."


async def test_the_server_pack_list_says_1_card(monkeypatch: pytest.MonkeyPatch) -> None:
    record = PackRecord(1, "ophelia", "Winter", 2, "w.toml", "", None, 0.0)
    found = [ServerPack(record, Pack("ophelia", "Winter", "", {}, (CardEntry("x", "Frost Giant", "unit"),)))]

    async def server_packs(store: Any, guild_id: int) -> list[ServerPack]:
        return found

    monkeypatch.setattr(discord_packs, "server_packs", server_packs)
    listed = await discord_packs.pack_list(None, 1)  # type: ignore[arg-type]
    assert listed.endswith("\n• Ophelia: **Winter v2**, 1 card")


def test_whole_lines_cut_at_a_line_break_or_within_a_line_too_long() -> None:
    """A long text is cut at its last line break that fits; a first line longer than the room is cut
    inside it (never the whole text: rfind finds no break)."""
    assert whole_lines("ab\ncd", 10) == "ab\ncd"
    assert whole_lines("ab\ncdef", 5) == "ab"
    assert whole_lines("x" * 50, 10) == "x" * 10
