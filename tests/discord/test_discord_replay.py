"""/game replay and /game export through the fake Discord (issue 26, "Replays and exports").

"`/game replay` (and the same for any finished game by id) posts the whole game as an animated image: one
frame per turn drawn from the spectator view, duplicate frames dropped, a readable pace, within Discord's
upload limit (fall back to fewer frames, then a smaller size, never fail); for a live game it replays up to
now, never showing hidden information. `/game export` attaches the match as JSON ... from which the engine
rebuilds the final state exactly."

The games are played to the end by the session manager alone (one person choosing at random, one random AI)
before the bot starts, so that each test spends its time on the replays, not on pressing buttons.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import render.api
from bot.sessions import SessionManager
from bot.sessions.pool import AiPool
from bot.store import SqliteStore
from engine.export import from_json, rebuild
from engine.match import Match
from engine.registry import games
from tests.discord_harness import Harness
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser

JSON = dict[str, Any]


async def play_games(
    fake: FakeDiscord, db: str, host: FakeUser, game_ids: list[str], *, moves: int | None = None
) -> dict[str, tuple[int, FakeChannel]]:
    """A game of each id in its own channel of the fake's server, host against a random AI, played at random
    to the end (or for `moves` of the host's moves, then left running): {game id: (match id, channel)}."""
    store = SqliteStore(db)
    await store.open()
    sessions = SessionManager(store, ai_pool=AiPool(0))
    played: dict[str, tuple[int, FakeChannel]] = {}
    try:
        for n, game_id in enumerate(game_ids, 1):
            channel = fake.add_channel(f"{game_id}-table")
            info = await sessions.create(
                channel.id, fake.guild.id, game_id, host.id, seed=n, host_name="alice"
            )
            await sessions.add_ai(info.id, host.id, "random")
            await sessions.start(info.id, host.id)
            chooser, mine = random.Random(n), 0
            while moves is None or mine < moves:
                await sessions.wait_idle(info.id)
                now = await sessions.get(info.id)
                if now.over:
                    break
                offered = await sessions.moves_for(info.id, host.id)
                if offered:
                    await sessions.submit(info.id, host.id, chooser.choice(offered).key, None)
                    mine += 1
            played[game_id] = (info.id, channel)
    finally:
        await sessions.close()
        await store.close()
    return played


async def play_one(
    fake: FakeDiscord, tmp_path: Path, host: FakeUser, game_id: str, *, moves: int | None = None
) -> tuple[int, FakeChannel]:
    """play_games with one game, in tmp_path's agora.db: its match id and channel."""
    return (await play_games(fake, str(tmp_path / "agora.db"), host, [game_id], moves=moves))[game_id]


def spectator_views(h: Harness, record: Any, log: list[tuple[int, str]]) -> set[str]:
    """Every spectator view of the match along its log (as canonical JSON text)."""
    m = Match.new(record.game_id, len(record.seats), record.seed, record.options)
    seen = {json.dumps(m.game.view(m.state, None), sort_keys=True)}
    for seat, key in log:
        m.submit(seat, key)
        seen.add(json.dumps(m.game.view(m.state, None), sort_keys=True))
    return seen


def drawn_views(monkeypatch: pytest.MonkeyPatch) -> list[JSON]:
    """Wrap the board renderer the animator uses: every view it is given is kept in the returned list."""
    given: list[JSON] = []
    real = render.api.board_image

    def recording(game_id: str, view: JSON, *args: Any, **kwargs: Any) -> Image.Image:
        given.append(view)
        return real(game_id, view, *args, **kwargs)

    monkeypatch.setattr(render.api, "board_image", recording)
    return given


def gif_of(message: FakeMessage) -> Image.Image:
    """The replay attached to a message, opened."""
    attachment = message.attachment("replay.gif")
    return Image.open(io.BytesIO(attachment.data))


async def slash(
    fake: FakeDiscord, user: FakeUser, channel: FakeChannel, cmd: str, **options: Any
) -> FakeMessage:
    # a replay draws every turn of a game: seconds of CPU on a loaded machine, so a generous no-hang bound
    return await (await fake.slash(user, channel, cmd, options)).wait_reply(timeout=30)


async def test_replays_and_exports_of_every_game_fit_show_only_public_views_and_rebuild_exactly(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = fake.add_user("alice")
    db = str(tmp_path / "agora.db")
    played = await play_games(fake, db, alice, list(games()))
    given = drawn_views(monkeypatch)
    async with Harness.started(fake, tmp_path) as h:
        for game_id, (mid, channel) in played.items():
            given.clear()
            posted = await slash(fake, alice, channel, "game replay")
            assert not posted.ephemeral and f"game #{mid} — replay" in posted.embeds[0]["title"]
            data = posted.attachment("replay.gif").data
            assert len(data) <= fake.upload_limit, game_id
            gif = gif_of(posted)
            assert gif.format == "GIF" and gif.n_frames >= 2, game_id
            durations = []
            for i in range(gif.n_frames):
                gif.seek(i)
                durations.append(gif.info["duration"])
            assert set(durations[:-1]) == {1000} and durations[-1] > 1000, "a readable pace, the last held"
            record = await h.store.get_match(mid)
            log = [(r.seat, r.key) for r in await h.store.load_log(mid)]
            public = spectator_views(h, record, log)
            assert given and all(v.get("viewer") is None for v in given)
            assert all(json.dumps(v, sort_keys=True) in public for v in given), f"{game_id}: a hidden card"

            exported = await slash(fake, alice, channel, "game export")
            assert exported.ephemeral and exported.visible_to == alice.id
            file = exported.attachments[0]
            assert file.filename == f"agora-{game_id}-{mid}.json"
            export = from_json(json.loads(file.data))
            assert [s.ai for s in export.seats] == [None, "random"] and export.status == "finished"
            rebuilt = rebuild(export)
            game = games()[game_id]
            assert game.to_json(rebuilt.state) == json.loads(record.snapshot), (
                f"{game_id}: not the same state"
            )
            assert tuple(game.returns(rebuilt.state) or ()) == export.shares


async def test_a_live_game_replays_up_to_now_but_is_not_exported(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = fake.add_user("alice")
    mid, channel = await play_one(fake, tmp_path, alice, "ophion", moves=6)
    given = drawn_views(monkeypatch)
    async with Harness.started(fake, tmp_path) as h:
        assert (await h.sessions.get(mid)).status == "active"
        posted = await slash(fake, alice, channel, "game replay")
        assert "Still being played" in posted.embeds[0]["description"]
        record = await h.store.get_match(mid)
        log = [(r.seat, r.key) for r in await h.store.load_log(mid)]
        public = spectator_views(h, record, log)
        assert all(json.dumps(v, sort_keys=True) in public for v in given)
        m = Match.replay(record.game_id, 2, record.seed, record.options, log)
        assert given[-1] == m.game.view(m.state, None), "the last frame is the position now"

        refused = await slash(fake, alice, channel, "game export")
        assert refused.ephemeral and not refused.attachments
        assert "still being played" in refused.text() and "hidden card" in refused.text()

        await h.sessions.abandon(mid, alice.id)  # over now: it may be exported, with no winner
        exported = await slash(fake, alice, channel, "game export")
        export = from_json(json.loads(exported.attachments[0].data))
        assert export.status == "abandoned" and export.shares is None and len(export.log) == len(log)
        assert games()["ophion"].to_json(rebuild(export).state) == json.loads(record.snapshot)


async def test_a_tiny_upload_limit_still_gets_a_picture(fake: FakeDiscord, tmp_path: Path) -> None:
    alice = fake.add_user("alice")
    mid, channel = await play_one(fake, tmp_path, alice, "siege_of_olympus")
    async with Harness.started(fake, tmp_path):
        full = await slash(fake, alice, channel, "game replay")
        turns = gif_of(full).n_frames
        fake.upload_limit = 300 * 1024  # what Discord says this server allows, and enforces
        small = await slash(fake, alice, channel, "game replay", id=mid)
        data = small.attachment("replay.gif").data
        gif = gif_of(small)
        assert len(data) <= fake.upload_limit and 1 <= gif.n_frames < turns
        assert f"{gif.n_frames} of its " in small.embeds[0]["description"]
        assert not fake.errors


async def test_the_fake_refuses_an_upload_over_the_limit_as_discord_does(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    import discord

    fake.upload_limit = 1000
    channel_id = fake.channel.id
    async with Harness.started(fake, tmp_path) as h:
        channel = h.bot.get_channel(channel_id)
        with pytest.raises(discord.HTTPException) as refused:
            await channel.send(file=discord.File(io.BytesIO(b"x" * 1001), "big.bin"))
        assert refused.value.status == 413 and refused.value.code == 40005
        await channel.send(file=discord.File(io.BytesIO(b"x" * 1000), "fits.bin"))


async def test_games_of_another_server_cannot_be_replayed_or_exported_from_here(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice = fake.add_user("alice")
    mid, _ = await play_one(fake, tmp_path, alice, "omphala")
    elsewhere = fake.add_guild("Elsewhere")
    lobby = fake.add_channel("lobby", elsewhere)
    stranger = fake.add_user("mallory", guild=elsewhere)
    async with Harness.started(fake, tmp_path):
        for sub in ("game replay", "game export"):
            refused = await slash(fake, stranger, lobby, sub, id=mid)
            assert refused.ephemeral and refused.content == f"There is no game #{mid} on this server."
            assert not refused.attachments
        nothing = await slash(fake, stranger, lobby, "game replay")
        assert "There is no game in this channel" in nothing.text()
        # On its own server, any channel may show it by its number.
        shown = await slash(fake, alice, fake.channel, "game replay", id=mid)
        assert shown.attachment("replay.gif").data


async def test_a_server_makes_two_replays_at_a_time(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.discord.replay as replays

    alice = fake.add_user("alice")
    mid, channel = await play_one(fake, tmp_path, alice, "omphala", moves=2)
    monkeypatch.setattr(replays, "_making", {fake.guild.id: replays.REPLAYS_AT_ONCE})
    async with Harness.started(fake, tmp_path):
        busy = await slash(fake, alice, channel, "game replay")
        assert busy.ephemeral and "2 replays are being made for this server" in busy.text()
        replays._making.clear()
        assert (await slash(fake, alice, channel, "game replay", id=mid)).attachment("replay.gif").data
