"""Skill ratings (issue 26, "Ratings"): openskill's Plackett-Luce model over results, per game, per server and
across servers; stored with the results in one transaction; rebuilt from the results exactly."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from bot import ratings
from bot.__main__ import main
from bot.ratings import (
    ALL_SERVERS,
    Change,
    Outcome,
    Rating,
    change_text,
    label,
    ranks,
    rate,
    shown,
    trend_text,
)
from bot.sessions import MatchInfo, SessionManager
from bot.sessions.base import result_row
from bot.store import (
    ABANDONED,
    ACTIVE,
    FINISHED,
    LogRow,
    NewMatch,
    PostgresStore,
    Seat,
    SqliteStore,
    StateUpdate,
    Store,
    StoreError,
)
from tests.pg import BACKENDS, open_test_store

ANN, BO, CY, DI, ED, FAY = 101, 102, 103, 104, 105, 106
GUILD, OTHER = 7, 8
MODEL = PlackettLuce()  # openskill's own, with its defaults


def _update(state_id: int, at: float, status: str = ACTIVE) -> StateUpdate:
    return StateUpdate(f'{{"s":{state_id}}}', state_id, state_id, 0, (0,), False, None, status, at)


async def _finish(
    store: Store,
    seats: tuple[Seat, ...],
    shares: tuple[float, ...],
    at: float,
    *,
    guild: int | None = GUILD,
    game: str = "omphala",
) -> int:
    """A match of these seats that finished at `at` with these shares (results as the session manager writes
    them: a seat an AI took over is its person's, with share 0)."""
    rec = await store.create_match(NewMatch(game, "1", guild, None, "discord", 1, {}, seats, None, at))
    await store.start_match(rec.id, _update(0, at))
    results = [result_row(i, seat, share) for i, (seat, share) in enumerate(zip(seats, shares, strict=True))]
    await store.record_action(rec.id, LogRow(1, 0, None, "x", at), _update(1, at, FINISHED), 0, results)
    return rec.id


def _people(*users: int) -> tuple[Seat, ...]:
    return tuple(Seat(u, None, f"P{u}") for u in users)


async def _rating(store: Store, player: str, scope: int = GUILD, game: str = "omphala") -> Rating:
    rows = await store.player_ratings(player, (scope,), game)
    assert len(rows) == 1, rows
    return rows[0].rating


def _same(rating: Rating, expected: object) -> bool:
    return (rating.mu, rating.sigma) == (expected.mu, expected.sigma)  # type: ignore[attr-defined]


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path):
    async with open_test_store(request.param, tmp_path) as s:
        yield s


# --- the model --------------------------------------------------------------------------------------------
async def test_ratings_from_fixed_results_equal_openskills_own(store: Store) -> None:
    """Issue 26: "Ratings from a fixed set of results match openskill's own computation" (per server and
    across servers)."""
    await _finish(store, _people(ANN, BO), (1.0, 0.0), 1.0)
    await _finish(store, _people(ANN, BO, CY), (0.0, 0.5, 0.5), 2.0)
    await _finish(store, _people(CY, ANN), (1.0, 0.0), 3.0, guild=OTHER)
    await _finish(store, _people(BO, CY, DI, ANN), (0.0, 1.0, 0.0, 0.0), 4.0)

    a, b, c, d = (MODEL.rating() for _ in range(4))  # this server (GUILD), by hand
    [[a], [b]] = MODEL.rate([[a], [b]], ranks=[1, 2])
    [[a], [b], [c]] = MODEL.rate([[a], [b], [c]], ranks=[3, 1, 1])
    [[b], [c], [d], [a]] = MODEL.rate([[b], [c], [d], [a]], ranks=[2, 1, 2, 2])
    for player, want in ((ANN, a), (BO, b), (CY, c), (DI, d)):
        assert _same(await _rating(store, str(player)), want), player

    a, b, c, d = (MODEL.rating() for _ in range(4))  # all servers: the other server's game in its place
    [[a], [b]] = MODEL.rate([[a], [b]], ranks=[1, 2])
    [[a], [b], [c]] = MODEL.rate([[a], [b], [c]], ranks=[3, 1, 1])
    [[c], [a]] = MODEL.rate([[c], [a]], ranks=[1, 2])
    [[b], [c], [d], [a]] = MODEL.rate([[b], [c], [d], [a]], ranks=[2, 1, 2, 2])
    for player, want in ((ANN, a), (BO, b), (CY, c), (DI, d)):
        assert _same(await _rating(store, str(player), ALL_SERVERS), want), player
    ann = await _rating(store, str(ANN), ALL_SERVERS)
    assert (ann.games, ann.wins) == (4, 1) and ann.ordinal == pytest.approx(a.ordinal(), abs=1e-12)


async def test_a_six_player_game_with_a_shared_win_rates_the_winners_as_a_tie(store: Store) -> None:
    """Issue 26: "a 6-player game with a shared win rates correctly": equal shares are a tie, so the two
    winners gain alike and the four others lose alike."""
    mid = await _finish(store, _people(ANN, BO, CY, DI, ED, FAY), (0.5, 0.0, 0.5, 0.0, 0.0, 0.0), 1.0)
    teams = [[MODEL.rating()] for _ in range(6)]
    want = MODEL.rate(teams, ranks=[1, 2, 1, 2, 2, 2])
    got = {c.change.player: c.change.after for c in await store.match_rating_changes(mid, GUILD)}
    for seat, user in enumerate((ANN, BO, CY, DI, ED, FAY)):
        assert _same(got[str(user)], want[seat][0]), user
    assert got[str(ANN)] == got[str(CY)] and got[str(ANN)].mu > 25 and got[str(ANN)].wins == 1
    losers = [got[str(u)] for u in (BO, DI, ED, FAY)]  # alike, up to openskill's own rounding
    assert all(r.mu == pytest.approx(losers[0].mu, abs=1e-9) and r.sigma == losers[0].sigma for r in losers)
    assert losers[0].mu < 25 and losers[0].wins == 0


def test_ranks_come_from_shares_and_a_seat_handed_over_ranks_last() -> None:
    """A higher share ranks better, equal shares tie; a seat an AI finished for someone who left is theirs,
    recorded with share 0, and below every seat played to the end."""
    seats = [Outcome(0, ANN, None, 0.5), Outcome(1, BO, None, 0.0), Outcome(2, CY, None, 0.5)]
    assert ranks(seats) == [1, 3, 1]
    left = [Outcome(0, ANN, "hard", 0.0), Outcome(1, BO, None, 0.0)]  # the AI won Ann's seat for nobody
    assert ranks(left) == [2, 1]
    changes = {c.player: c for c in rate(left, {})}
    assert changes[str(BO)].after.mu > 25 > changes[str(ANN)].after.mu and "ai:hard" not in changes


def test_an_ai_level_is_a_player_and_several_seats_of_it_move_by_their_mean_change() -> None:
    """An AI level is rated as its own player ("ai:hard"), so "beat the hard AI" means something; two seats
    of one level are each rated from the level's rating, which then moves by the mean of their changes."""
    assert ratings.player_of(None, "hard") == "ai:hard" and label("ai:hard") == "AI · hard"
    assert label(str(ANN)) == f"<@{ANN}>" and ratings.person_of("ai:hard") is None
    hard = Rating(30.0, 5.0, 3, 2)
    seats = [Outcome(0, ANN, None, 1.0), Outcome(1, None, "hard", 0.0), Outcome(2, None, "hard", 0.0)]
    changes = {c.player: c for c in rate(seats, {"ai:hard": hard})}
    [[a], [h1], [h2]] = MODEL.rate(
        [[MODEL.rating()], [MODEL.rating(mu=30.0, sigma=5.0)], [MODEL.rating(mu=30.0, sigma=5.0)]],
        ranks=[1, 2, 2],
    )
    assert _same(changes[str(ANN)].after, a)
    after = changes["ai:hard"].after
    assert after.mu == pytest.approx(30.0 + ((h1.mu - 30.0) + (h2.mu - 30.0)) / 2)
    assert after.sigma == pytest.approx(5.0 + ((h1.sigma - 5.0) + (h2.sigma - 5.0)) / 2)
    assert (after.games, after.wins) == (4, 2)  # the game counts once


def test_fewer_than_two_players_is_unrated() -> None:
    """Two seats of one AI level alone, or one person alone, rate nothing."""
    assert rate([Outcome(0, None, "hard", 1.0), Outcome(1, None, "hard", 0.0)], {}) == []
    assert rate([Outcome(0, ANN, None, 1.0)], {}) == []


def test_words() -> None:
    """One decimal; the change from the shown values; "first rated game"; the trend with its arrow."""
    fresh = Rating()
    assert shown(fresh.ordinal) == "0.0" and fresh.ordinal == pytest.approx(MODEL.rating().ordinal())
    before, after = Rating(30.0, 5.26, 3), Rating(31.0, 5.0, 4)  # 14.22 -> 16.0
    assert change_text(Change("1", before, after)) == "14.2 → 16.0 (+1.8)"
    assert change_text(Change("1", after, before)) == "16.0 → 14.2 (-1.8)"
    assert change_text(Change("1", fresh, Rating(27.6, 8.07, 1, 1))) == "3.4 (first rated game)"
    assert trend_text(12.0, 14.1, 10) == "▲ 2.1 over the last 10 games"
    assert trend_text(3.0, 2.5, 1) == "▼ 0.5 over the last game"
    assert trend_text(3.0, 3.0, 2) == "= 0.0 over the last 2 games"


# --- storage ----------------------------------------------------------------------------------------------
async def _omphala(sessions: SessionManager, *guests: int) -> MatchInfo:
    """An Omphala game (seed 3) hosted by ANN, the guests joined, started."""
    info = await sessions.create(1, GUILD, "omphala", ANN, seed=3)
    for guest in guests:
        await sessions.join(info.id, guest)
    await sessions.start(info.id, ANN)
    return info


async def test_a_forfeit_is_rated_as_a_loss_for_the_forfeiter(store: Store) -> None:
    """Issue 26: "a timeout forfeit is rated as a loss" (SessionManager.forfeit: the others share the win)."""
    sessions = SessionManager(store)
    try:
        info = await _omphala(sessions, BO, CY)
        await sessions.forfeit(info.id, BO, "timed out")
    finally:
        await sessions.close()
    got = {c.change.player: c.change.after for c in await store.match_rating_changes(info.id, GUILD)}
    [[a], [b], [c]] = MODEL.rate([[MODEL.rating()] for _ in range(3)], ranks=[1, 2, 1])
    assert _same(got[str(ANN)], a) and _same(got[str(BO)], b) and _same(got[str(CY)], c)
    assert got[str(BO)].mu < 25 < got[str(ANN)].mu and (got[str(BO)].games, got[str(BO)].wins) == (1, 0)


async def test_abandoned_games_are_unrated(store: Store) -> None:
    """Issue 26: "Abandoned games are unrated"."""
    sessions = SessionManager(store)
    try:
        info = await _omphala(sessions, BO)
        assert (await sessions.abandon(info.id, ANN)).status == ABANDONED
    finally:
        await sessions.close()
    assert await store.match_rating_changes(info.id, GUILD) == []
    assert await store.player_ratings(str(ANN), (GUILD, ALL_SERVERS)) == []


async def test_console_games_are_unrated_and_an_ai_level_is_rated_per_scope(store: Store) -> None:
    """A game at a terminal has no server: unrated. A person against the hard AI rates both, on the server
    and across servers, and the level is ranked on the leaderboard as "ai:hard"."""
    console = await _finish(store, (Seat(1), Seat(None, "hard")), (1.0, 0.0), 1.0, guild=None)
    assert await store.match_rating_changes(console, ALL_SERVERS) == []
    for i in range(5):
        await _finish(store, (Seat(ANN), Seat(None, "hard", "AI")), (0.0, 1.0), 2.0 + i)
    hard = await _rating(store, "ai:hard")
    assert (hard.games, hard.wins) == (5, 5) and hard.ordinal > 0 > (await _rating(store, str(ANN))).ordinal
    board = await store.game_ratings("omphala", GUILD, min_games=5)
    assert [r.player for r in board] == ["ai:hard", str(ANN)]
    assert await store.game_ratings("omphala", GUILD, min_games=6) == []
    newcomers = await store.game_ratings("omphala", GUILD, min_games=6, ranked=False)
    assert [r.player for r in newcomers] == ["ai:hard", str(ANN)]
    recent = await store.recent_rating_changes(ALL_SERVERS, "omphala", str(ANN), 3)
    assert [r.finished_at for r in recent] == [6.0, 5.0, 4.0]


async def test_results_and_ratings_are_one_transaction(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A crash while rating leaves neither the results nor the finished state: it all commits or none."""
    rec = await store.create_match(NewMatch("omphala", "1", GUILD, None, "discord", 1, {}, _people(ANN, BO),
                                            None, 1.0))  # fmt: skip
    await store.start_match(rec.id, _update(0, 1.0))

    def broken(*_: object) -> list[Change]:
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(ratings, "rate", broken)
    results = [result_row(0, Seat(ANN), 1.0), result_row(1, Seat(BO), 0.0)]
    with pytest.raises(RuntimeError):
        await store.record_action(rec.id, LogRow(1, 0, ANN, "x", 2.0), _update(1, 2.0, FINISHED), 0, results)
    again = await store.get_match(rec.id)
    assert again is not None and again.status == ACTIVE and await store.match_shares(rec.id) is None


async def _tables(path: str) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    con = sqlite3.connect(path)
    try:
        rated = con.execute("SELECT * FROM ratings ORDER BY scope, game_id, player").fetchall()
        changes = con.execute("SELECT * FROM rating_changes ORDER BY match_id, scope, player").fetchall()
        return rated, changes
    finally:
        con.close()


async def _season(store: Store) -> None:
    """Games of every kind: duels, a shared win, a seat handed over, two AIs of one level, another server,
    another game, a console game, a lone AI table."""
    hard = Seat(None, "hard", "AI")
    await _finish(store, _people(ANN, BO), (1.0, 0.0), 1.0)
    await _finish(store, _people(ANN, BO, CY, DI), (0.5, 0.0, 0.5, 0.0), 2.0)
    await _finish(store, (Seat(None, "hard", "AI for Bo", stands_for=BO), Seat(CY)), (1.0, 0.0), 3.0)
    await _finish(store, (Seat(ANN), hard, hard), (0.0, 0.5, 0.5), 4.0)
    await _finish(store, _people(BO, ANN), (1.0, 0.0), 5.0, guild=OTHER)
    await _finish(store, _people(ANN, CY), (0.0, 1.0), 6.0, game="ophion")
    await _finish(store, _people(ANN, BO), (1.0, 0.0), 7.0, guild=None)
    await _finish(store, (hard, hard), (1.0, 0.0), 8.0)
    await _finish(store, _people(DI, ANN, ED), (0.0, 0.0, 1.0), 9.0)


async def _stored(store: Store) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """The ratings and rating_changes tables as _tables reads them, from either backend."""
    queries = (
        'SELECT * FROM ratings ORDER BY scope, game_id COLLATE "C", player COLLATE "C"',
        'SELECT * FROM rating_changes ORDER BY match_id, scope, player COLLATE "C"',
    )
    if isinstance(store, SqliteStore):
        return await _tables(store.path)
    assert isinstance(store, PostgresStore)
    rated, changes = [[tuple(r) for r in await store.pool.fetch(sql)] for sql in queries]
    return rated, changes


async def test_rebuild_gives_exactly_what_the_incremental_updates_gave(store: Store) -> None:
    """Issue 26: "Ratings are recomputable from the stored results (a command rebuilds them)"."""
    await _season(store)
    incremental = await _stored(store)
    done = await store.rebuild_ratings()
    assert await _stored(store) == incremental
    assert (done.games, done.rated) == (9, 7)  # not the console game nor the lone AI table
    assert (done.ratings, done.changes) == (len(incremental[0]), len(incremental[1]))
    assert await store.rebuild_ratings() == done  # and again: the same


async def test_both_backends_rate_a_season_alike(tmp_path: Path) -> None:
    """Issue 27: one store, either database: the same games give the very same ratings and changes."""
    found = []
    for backend in BACKENDS:
        async with open_test_store(backend, tmp_path) as store:
            await _season(store)
            found.append(await _stored(store))
    assert found[0] == found[1] and found[0][0]


def test_the_rebuild_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`python -m bot ratings --rebuild --db PATH` says what it did; a missing file is refused, not made."""
    path = str(tmp_path / "bot.db")

    async def season() -> None:
        async with SqliteStore(path) as store:
            await _season(store)

    asyncio.run(season())
    assert main(["ratings", "--rebuild", "--db", path]) == 0
    out = capsys.readouterr().out
    assert "from 9 finished games: 7 rated, 2 unrated" in out and "rating changes stored" in out
    assert main(["ratings", "--rebuild", "--db", str(tmp_path / "none.db")]) == 1
    assert "no database" in capsys.readouterr().err and not (tmp_path / "none.db").exists()
    assert main(["ratings", "--db", path]) == 2


async def test_a_version_7_database_gets_its_ratings_built_from_its_results(tmp_path: Path) -> None:
    """Migration 8 on a database with results: the ratings are what they would be had they been kept all
    along (the same as a new database that recorded the same games)."""
    along = str(tmp_path / "along.db")
    async with SqliteStore(along) as store:
        await _season(store)
    old = str(tmp_path / "v7.db")
    async with SqliteStore(old, target_version=7) as v7:
        assert isinstance(v7, SqliteStore) and await v7.schema_version() == 7
    src, dst = sqlite3.connect(along), sqlite3.connect(old)  # the same matches and results, as v7 kept them
    try:
        for table in ("matches", "results"):
            columns = [r[1] for r in dst.execute(f"PRAGMA table_info('{table}')")]
            rows = src.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall()
            dst.executemany(f"INSERT INTO {table} VALUES ({','.join('?' * len(columns))})", rows)
        dst.commit()
        assert dst.execute("SELECT name FROM sqlite_master WHERE name = 'ratings'").fetchone() is None
    finally:
        src.close()
        dst.close()
    async with SqliteStore(old) as store:
        assert isinstance(store, SqliteStore) and await store.schema_version() >= 8
    assert await _tables(old) == await _tables(along) and (await _tables(old))[0]


async def test_a_damaged_ratings_table_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    """The schema check knows migration 8's tables like any other."""
    path = str(tmp_path / "damaged.db")
    async with SqliteStore(path):
        pass
    con = sqlite3.connect(path)
    con.execute("DROP TABLE rating_changes")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match="rating_changes is missing"):
        await SqliteStore(path).open()
