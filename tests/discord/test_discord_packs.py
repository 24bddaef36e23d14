"""Card packs end to end through the fake Discord (issue 26, "Card packs"): "`/config cardpack` with a TOML
attachment ... validated ... with errors naming file, card and field"; "packs are stored per server,
versioned, and chosen in the lobby (`/play game: pack:`); a running game keeps the pack version it started
with; `/card` finds pack cards". A malformed pack gets its precise error and changes nothing; a game with a
pack survives a restart of the bot process."""

from __future__ import annotations

import signal
from pathlib import Path

from bot.sessions.packs import pack_of
from engine import packs
from tests.discord.test_discord_restarts import Worker, boards, shows, worker
from tests.discord_harness import Harness
from tests.fakediscord import FakeAttachment, FakeChannel, FakeDiscord, FakeMessage, FakeUser

GAME = "ophelia"  # its example pack adds characters and a ready deck that carries them
SILK = "The Silk Road"  # the example pack's name


def pack_file(name: str = SILK, filename: str = "silk.toml", *, power: str | None = None) -> FakeAttachment:
    """The game's example pack as a file a user attaches, renamed, or with the first card's power replaced."""
    path = packs.example(GAME)
    assert path is not None
    text = path.read_text(encoding="utf-8").replace(f'name = "{SILK}"', f'name = "{name}"', 1)
    if power is not None:
        text = text.replace("\npower = ", f"\npower = {power} #", 1)
    return FakeAttachment.from_upload(filename, text.encode())


async def config(fake: FakeDiscord, user: FakeUser, **options: object) -> FakeMessage:
    """/config with these options; the answer."""
    return await (await fake.slash(user, fake.channel, "config", options)).wait_reply()


async def suggestions(
    fake: FakeDiscord, user: FakeUser, command: str, focused: str, **options: str
) -> list[tuple[str, str]]:
    """(name, value) of what the bot suggests while `focused` is typed."""
    ix = await fake.autocomplete(user, fake.channel, command, options, focused)
    await ix.wait_callback()
    return [(c["name"], c["value"]) for c in ix.choices]


def downloads(fake: FakeDiscord, file: FakeAttachment) -> int:
    """How many times the bot fetched a user's attached file."""
    return sum(1 for method, path in fake.requests if method == "GET" and f"/{file.id}/" in path)


def last_ack(w: Worker) -> int:
    """The state_id of the latest committed start, move or undo the bot process reported (-1: none)."""
    return max((s for _, s, _ in w.acks), default=-1)


async def settled_board(fake: FakeDiscord, w: Worker, thread: FakeChannel, after: int) -> FakeMessage:
    """The board of the latest committed state past `after` (moves played for people, e.g. a window that
    passes by itself, come before it)."""

    def drawn() -> FakeMessage | None:
        posted = boards(fake, thread)
        last = last_ack(w)
        return posted[-1] if posted and last > after and shows(posted[-1], last) else None

    return await fake.wait_until(drawn, 15, f"a board past move {after}")


async def test_a_malformed_pack_gets_its_precise_error_and_changes_nothing(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    ann, bob = fake.add_user("ann", admin=True), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        guild = fake.guild.id
        bad = pack_file(power='"x"')
        answer = await config(fake, ann, cardpack=bad, hints="off")
        assert answer.ephemeral and answer.visible_to == ann.id
        assert answer.content == "silk.toml card 1 (marco_polo): power must be int, not 'x'"
        assert downloads(fake, bad) == 1
        assert (
            await h.store.packs(guild) == [] and await h.store.guild_settings(guild) == {}
        )  # hints untouched

        big = FakeAttachment.from_upload("big.toml", b"#" * (packs.MAX_PACK_BYTES + 1))
        answer = await config(fake, ann, cardpack=big)
        assert answer.content == "big.toml: 65,537 bytes; a card pack is at most 65,536 bytes"
        assert downloads(fake, big) == 0  # refused on the size Discord gives, never downloaded

        latin = FakeAttachment.from_upload("latin.toml", "[pack]\nname = 'Café'".encode("latin-1"))
        answer = await config(fake, ann, cardpack=latin)
        assert answer.content == "latin.toml: not UTF-8 text (byte 19 cannot be read)"

        wrong = FakeAttachment.from_upload("cards.toml", b'[pack]\ngame = "omphala"\nname = "X"\n')
        answer = await config(fake, ann, cardpack=wrong)
        assert answer.text().startswith("cards.toml [pack]: game = 'omphala': Omphala is played with a")

        lost = pack_file()
        fake.fail("GET", f"/ephemeral-attachments/{fake.application_id}/{lost.id}/", 500)  # the CDN fails
        answer = await config(fake, ann, cardpack=lost)
        assert answer.content == "silk.toml could not be downloaded from Discord; please try again."

        # A good pack beside a setting that is refused is not stored either: nothing changes, or everything.
        answer = await config(fake, ann, cardpack=pack_file(), remove_cardpack="Nothing")
        assert answer.content == "This server has no card pack called 'Nothing'; `/config` lists its packs."
        answer = await config(fake, ann, cardpack=pack_file(), timezone="Mars/Olympus")
        assert answer.content.startswith("I don't know that timezone") and await h.store.packs(guild) == []

        # Someone without Manage Server cannot add one (even with a client that still shows the command).
        ix = await fake.slash(bob, fake.channel, "config", {"cardpack": pack_file()}, check_permissions=False)
        refused = await ix.wait_reply()
        assert refused.content == "Only members with Manage Server can change the settings."
        assert await h.store.packs(guild) == [] and await h.store.guild_settings(guild) == {}


async def test_a_good_pack_is_stored_versioned_listed_and_removable(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    ann = fake.add_user("ann", admin=True)
    async with Harness.started(fake, tmp_path) as h:
        guild = fake.guild.id
        answer = await config(fake, ann, cardpack=pack_file())
        assert answer.ephemeral
        assert answer.text().startswith(
            "📦 Card pack **The Silk Road** v1 for Ophelia: 6 cards (Ban Zhao, Marco Polo, Xuanzang, "
        )
        assert f"Play with it: `/play game:Ophelia pack:{SILK}`; `/card` finds its cards." in answer.text()
        assert "⚙️ Settings for this server:" in answer.text()
        assert "📦 Card packs (`/play game: pack:` deals one):\n• Ophelia: **The Silk Road v1**, 6 cards" in (
            answer.text()
        )

        again = await config(fake, ann, cardpack=pack_file(name="the silk road"))  # any case: the same pack
        assert again.text().startswith("📦 Card pack **the silk road** v2 for Ophelia")
        assert "games already running keep the version they started with" in again.text()
        await config(fake, ann, cardpack=pack_file(name="Spice Route", filename="spice.toml"))
        listed = await config(fake, ann)
        assert (
            "• Ophelia: **Spice Route v1**, 6 cards\n• Ophelia: **the silk road v2**, 6 cards"
            in listed.text()
        )
        first = await h.store.pack(guild, GAME, SILK, version=1)
        assert first is not None and first.filename == "silk.toml" and first.uploaded_by == ann.id

        offered = await suggestions(fake, ann, "config", "remove_cardpack", remove_cardpack="silk")
        assert offered == [("the silk road · Ophelia", f"{GAME}/the silk road")]
        removed = await config(fake, ann, remove_cardpack=offered[0][1])
        assert removed.text().startswith("🗑️ Card pack **the silk road** for Ophelia is no longer offered")
        assert [p.name for p in await h.store.packs(guild)] == ["Spice Route"]
        missing = await config(fake, ann, remove_cardpack="Silk Road", hints="off")
        assert (
            missing.content == "This server has no card pack called 'Silk Road'; `/config` lists its packs."
        )
        assert await h.store.guild_settings(guild) == {}  # the refusal changed nothing else either
        back = await config(fake, ann, cardpack=pack_file())
        assert back.text().startswith(f"📦 Card pack **{SILK}** v3 for Ophelia")  # numbers are never reused


async def test_play_with_a_pack_keeps_its_version_across_uploads_and_a_restart(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    ann, bob = fake.add_user("ann", admin=True), fake.add_user("bob")
    async with Harness.started(fake, tmp_path) as h:
        await config(fake, ann, cardpack=pack_file())
        offered = await suggestions(fake, bob, "play", "pack", game=GAME, pack="")
        assert offered == [(f"{SILK} v1 · Ophelia", SILK)]
        assert await suggestions(fake, bob, "play", "pack", game="ophion", pack="") == []

        # A missing pack, or one of another game, is refused politely and opens nothing.
        for game, wanted, words in (
            (GAME, "Spice", "This server has no Ophelia card pack called 'Spice'."),
            ("ophion", SILK, f"The card pack **{SILK}** is for Ophelia, not Ophion;"),
            ("omphala", SILK, "Omphala takes no card packs; play it without `pack:`."),
        ):
            ix = await fake.slash(bob, fake.channel, "play", {"game": game, "pack": wanted})
            refusal = await ix.wait_reply()
            assert refusal.ephemeral and refusal.text().startswith(words), refusal.text()
        assert fake.threads(fake.channel) == []

        await (
            await fake.slash(bob, fake.channel, "play", {"game": GAME, "pack": "the SILK road"})
        ).wait_reply()
        thread = await fake.wait_until(lambda: next(iter(fake.threads(fake.channel)), None), what="thread")
        await fake.wait_until(lambda: fake.message_count(thread.id) > 0, what="the lobby")
        lobby = fake.latest(thread)
        assert f"**Card pack {SILK} v1**: its cards join the game's own" in lobby.text()
        deck = next(v for v in lobby.option_values(placeholder="Choose your Deck (random if none)").values()
                    if v.startswith("silk_road."))  # fmt: skip
        lobby = await h.pick_choice(bob, lobby, deck, "Choose your Deck (random if none)")
        assert "deck: Silk Road" in lobby.text()
        lobby = await h.press(ann, lobby, "Join")
        await h.press(bob, lobby, "Start")
        await h.settle()
        mid = (await h.sessions.match_for_channel(thread.id)).id
        board = h.board(thread)
        assert f"card pack {SILK} v1 · anyone may look" in board.text()

        await config(fake, ann, cardpack=pack_file())  # v2 arrives while the game runs
        await h.restart()  # a new bot on the same database
        info = await h.sessions.get(mid)
        assert pack_of(info.options) == (SILK, 1) and info.options["seat_choices"][0] == {"deck": deck}
        view = await h.sessions.view_for(mid, bob.id)
        assert any(e.id in str(view) for e in packs.read(pack_file().data.decode(), "x").entries)  # in hand
        await h.play_move(bob if info.users_to_act[0] == bob.id else ann, thread)
        await h.settle()
        assert f"card pack {SILK} v1 ·" in h.board(thread).text()


async def test_card_finds_a_pack_card_on_its_server_only(fake: FakeDiscord, tmp_path: Path) -> None:
    ann, bob = fake.add_user("ann", admin=True), fake.add_user("bob")
    elsewhere = fake.add_guild("Elsewhere")
    other: FakeChannel = fake.add_channel("general", elsewhere)
    elsewhere.members[bob.id] = fake.guild.members[bob.id]
    async with Harness.started(fake, tmp_path) as h:
        del h
        await config(fake, ann, cardpack=pack_file())
        offered = await suggestions(fake, bob, "card", "name", game=GAME, name="marco")
        assert len(offered) == 1 and offered[0][0] == f"Marco Polo · {SILK} pack"
        assert offered[0][1].startswith(f"{SILK}/marco_polo.")
        for asked in (offered[0][1], "Marco Polo", "marco"):
            card = await (
                await fake.slash(bob, fake.channel, "card", {"game": GAME, "name": asked})
            ).wait_reply()
            assert card.ephemeral and card.text().startswith("**Marco Polo** — "), card.text()
            assert "When this enters play; draw a card." in card.text()
            assert card.text().endswith(f"*From this server's card pack **{SILK}** v1.*")
        everywhere = await suggestions(fake, bob, "card", "name", name="marco")  # no game chosen yet
        assert (f"Marco Polo · {SILK} pack · Ophelia", offered[0][1]) in everywhere

        # Another server has no such card: neither suggested nor found.
        ix = await fake.autocomplete(bob, other, "card", {"game": GAME, "name": "marco"}, "name")
        await ix.wait_callback()
        assert ix.choices == []
        ix = await fake.slash(bob, other, "card", {"game": GAME, "name": "Marco Polo"})
        assert (await ix.wait_reply()).text().startswith("Ophelia has no card called `Marco Polo`.")


async def test_a_game_with_a_pack_survives_a_restart_of_the_bot_process(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    ann, bob = fake.add_user("ann", admin=True), fake.add_user("bob")
    people = {ann.id: ann, bob.id: bob}
    h = Harness(fake, str(tmp_path / "agora.db"))  # only its user helpers: the bot runs in the subprocess
    async with worker(fake, tmp_path) as w:
        await config(fake, ann, cardpack=pack_file())
        await (await fake.slash(bob, fake.channel, "play", {"game": GAME, "pack": SILK})).wait_reply()
        thread = await fake.wait_until(
            lambda: next((t for t in fake.threads(fake.channel) if fake.message_count(t.id)), None),
            what="lobby",
        )
        lobby = fake.latest(thread)
        deck = next(v for v in lobby.option_values(placeholder="Choose your Deck (random if none)").values()
                    if v.startswith("silk_road."))  # fmt: skip
        lobby = await h.pick_choice(bob, lobby, deck, "Choose your Deck (random if none)")
        lobby = await h.press(ann, lobby, "Join")
        await h.press(bob, lobby, "Start")
        board = await settled_board(fake, w, thread, -1)
        assert f"card pack {SILK} v1" in board.text()
        before = last_ack(w)
        await h.play_move(people[board.mention_ids[0]], thread)
        moved = await settled_board(fake, w, thread, before)
        await config(fake, ann, cardpack=pack_file())  # v2
        await w.stop(signal.SIGTERM)
        await w.start()  # a fresh process: it knows the pack's cards only from the stored game
        hand = await h.press(people[moved.mention_ids[0]], moved, "My hand & moves")
        assert hand.ephemeral and hand.attachment("hand.png").data[:4] == b"\x89PNG"
        before = last_ack(w)
        await h.play_move(people[moved.mention_ids[0]], thread)
        board = await settled_board(fake, w, thread, before)
        assert f"card pack {SILK} v1 ·" in board.text() and last_ack(w) > before
