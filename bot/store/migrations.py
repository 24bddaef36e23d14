"""Versioned SQLite schema migrations: each runs once, in order, in its own transaction.

The schema version lives in `PRAGMA user_version`. Append new migrations; never edit a released one.
"""

from __future__ import annotations

import functools
import sqlite3

Migration = tuple[int, str, tuple[str, ...]]

MIGRATIONS: tuple[Migration, ...] = (
    (
        1,
        "guild settings, matches and the action log",
        (
            """CREATE TABLE guild_settings (
                guild_id INTEGER NOT NULL,
                key TEXT NOT NULL,
                value TEXT NOT NULL,
                PRIMARY KEY (guild_id, key)
            ) WITHOUT ROWID""",
            """CREATE TABLE matches (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                game_id TEXT NOT NULL,
                rules_version TEXT NOT NULL,
                guild_id INTEGER,
                channel_id INTEGER,
                origin TEXT NOT NULL DEFAULT 'discord',
                status TEXT NOT NULL,
                seed INTEGER NOT NULL,
                options TEXT NOT NULL DEFAULT '{}',
                seats TEXT NOT NULL DEFAULT '[]',
                host_user INTEGER,
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL,
                snapshot TEXT,
                snapshot_hash TEXT,
                state_id INTEGER NOT NULL DEFAULT 0,
                log_len INTEGER NOT NULL DEFAULT 0,
                undo_floor INTEGER NOT NULL DEFAULT 0,
                to_act TEXT NOT NULL DEFAULT '[]',
                ai_turn INTEGER NOT NULL DEFAULT 0,
                note TEXT NOT NULL DEFAULT ''
            )""",
            # One live match per channel, enforced by the database itself.
            """CREATE UNIQUE INDEX matches_live_channel ON matches (channel_id)
                WHERE status IN ('lobby', 'active') AND channel_id IS NOT NULL""",
            "CREATE INDEX matches_ai_turn ON matches (id) WHERE status = 'active' AND ai_turn = 1",
            "CREATE INDEX matches_status_updated ON matches (status, updated_at)",
            """CREATE TABLE actions (
                match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                seq INTEGER NOT NULL,
                seat INTEGER NOT NULL,
                user_id INTEGER,
                action_key TEXT NOT NULL,
                at REAL NOT NULL,
                undone INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (match_id, seq)
            ) WITHOUT ROWID""",
        ),
    ),
    (
        2,
        "finished results for stats; turn deadlines",
        (
            """CREATE TABLE results (
                match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                seat INTEGER NOT NULL,
                user_id INTEGER,
                ai TEXT,
                game_id TEXT NOT NULL,
                guild_id INTEGER,
                share REAL NOT NULL,
                finished_at REAL NOT NULL,
                PRIMARY KEY (match_id, seat)
            ) WITHOUT ROWID""",
            "CREATE INDEX results_user ON results (user_id, game_id)",
            "CREATE INDEX results_game ON results (game_id, guild_id)",
            "ALTER TABLE matches ADD COLUMN deadline REAL",
            """CREATE INDEX matches_deadline ON matches (deadline)
                WHERE status = 'active' AND deadline IS NOT NULL""",
        ),
    ),
    (
        3,
        "players' requests to abandon a game (kept across restarts until all agree)",
        (
            """CREATE TABLE abandon_votes (
                match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                user_id INTEGER NOT NULL,
                at REAL NOT NULL,
                PRIMARY KEY (match_id, user_id)
            ) WITHOUT ROWID""",
        ),
    ),
    (
        4,
        "each match's public board message: where it is, the state it shows, its last public events",
        (
            """CREATE TABLE boards (
                match_id INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
                channel_id INTEGER NOT NULL,
                message_id INTEGER NOT NULL,
                state_id INTEGER NOT NULL,
                turn TEXT NOT NULL DEFAULT 'null',
                pinged TEXT NOT NULL DEFAULT '[]',
                recent TEXT NOT NULL DEFAULT '[]'
            ) WITHOUT ROWID""",
            # Games that were running before this migration count as drawn: no re-post of old boards.
            """INSERT INTO boards (match_id, channel_id, message_id, state_id)
                SELECT id, channel_id, 0, state_id FROM matches
                WHERE status = 'active' AND origin = 'discord' AND channel_id IS NOT NULL""",
        ),
    ),
    (
        5,
        "people's own settings (direct-message reminders); where each lobby message is",
        (
            """CREATE TABLE user_settings (
                user_id INTEGER NOT NULL,
                key TEXT NOT NULL,
                value TEXT NOT NULL,
                PRIMARY KEY (user_id, key)
            ) WITHOUT ROWID""",
            """CREATE TABLE lobby_messages (
                match_id INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
                channel_id INTEGER NOT NULL,
                message_id INTEGER NOT NULL
            ) WITHOUT ROWID""",
            "CREATE INDEX matches_lobby_updated ON matches (updated_at) WHERE status = 'lobby'",
        ),
    ),
    (
        6,
        "people's saved decks, by game and name (a name is one deck whatever its case)",
        (
            """CREATE TABLE decks (
                user_id INTEGER NOT NULL,
                game_id TEXT NOT NULL,
                name TEXT NOT NULL COLLATE NOCASE,
                deck TEXT NOT NULL,
                updated_at REAL NOT NULL,
                PRIMARY KEY (user_id, game_id, name)
            ) WITHOUT ROWID""",
        ),
    ),
    (
        7,
        "who has a seat in each match (a person's games, by person); the rematch a finished match opened",
        (
            # A person's seat: their own, or one an AI plays for them since they left (seat "for").
            """CREATE TABLE match_people (
                user_id INTEGER NOT NULL,
                match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                PRIMARY KEY (user_id, match_id)
            ) WITHOUT ROWID""",
            "CREATE INDEX match_people_match ON match_people (match_id)",
            """INSERT OR IGNORE INTO match_people (user_id, match_id)
                SELECT person, id FROM (
                    SELECT m.id AS id, CASE WHEN s.type != 'object' THEN NULL
                        WHEN json_extract(s.value, '$.ai') IS NULL THEN json_extract(s.value, '$.user')
                        ELSE json_extract(s.value, '$.for') END AS person
                    FROM matches m,
                        json_each(CASE WHEN NOT json_valid(m.seats) THEN '[]'
                            WHEN json_type(m.seats) = 'array' THEN m.seats ELSE '[]' END) s
                ) WHERE typeof(person) = 'integer'""",
            "ALTER TABLE matches ADD COLUMN rematch_of INTEGER",
            # One live rematch (lobby or game) per finished match, enforced by the database itself.
            """CREATE UNIQUE INDEX matches_live_rematch ON matches (rematch_of)
                WHERE status IN ('lobby', 'active') AND rematch_of IS NOT NULL""",
        ),
    ),
    (
        8,
        "skill ratings (bot/ratings.py) per game, per server and across servers (scope 0), and each match's "
        "changes; built from the stored results when this migration runs (sqlite.AFTER_MIGRATION)",
        (
            # player: a user id as text, or "ai:<level>"; ordinal is mu - 3 sigma, kept for ranking.
            """CREATE TABLE ratings (
                scope INTEGER NOT NULL,
                game_id TEXT NOT NULL,
                player TEXT NOT NULL,
                mu REAL NOT NULL,
                sigma REAL NOT NULL,
                ordinal REAL NOT NULL,
                games INTEGER NOT NULL,
                wins INTEGER NOT NULL,
                PRIMARY KEY (scope, game_id, player)
            ) WITHOUT ROWID""",
            "CREATE INDEX ratings_rank ON ratings (scope, game_id, ordinal)",
            "CREATE INDEX ratings_player ON ratings (player, scope)",
            # games and wins are the player's counts after this match; won is whether it counted as a win.
            """CREATE TABLE rating_changes (
                match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
                scope INTEGER NOT NULL,
                game_id TEXT NOT NULL,
                player TEXT NOT NULL,
                mu_before REAL NOT NULL,
                sigma_before REAL NOT NULL,
                mu_after REAL NOT NULL,
                sigma_after REAL NOT NULL,
                games INTEGER NOT NULL,
                wins INTEGER NOT NULL,
                won INTEGER NOT NULL,
                finished_at REAL NOT NULL,
                PRIMARY KEY (match_id, scope, player)
            ) WITHOUT ROWID""",
            "CREATE INDEX rating_changes_player ON rating_changes (scope, game_id, player, finished_at)",
        ),
    ),
    (
        9,
        "servers' card packs, by game and name (any case), every uploaded version kept",
        (
            # A version is the file as uploaded; removing a pack marks its versions removed (numbers are
            # never reused). Rows hold files of up to 64 KB, so the table keeps its rowid.
            """CREATE TABLE card_packs (
                guild_id INTEGER NOT NULL,
                game_id TEXT NOT NULL,
                name TEXT NOT NULL COLLATE NOCASE,
                version INTEGER NOT NULL,
                filename TEXT NOT NULL,
                text TEXT NOT NULL,
                uploaded_by INTEGER,
                uploaded_at REAL NOT NULL,
                removed_at REAL,
                UNIQUE (guild_id, game_id, name, version)
            )""",
        ),
    ),
    (
        10,
        "claims on work that must happen once across bot processes (a timeout, an AI turn), with a lease",
        (
            """CREATE TABLE claims (
                key TEXT PRIMARY KEY,
                owner TEXT NOT NULL,
                until REAL NOT NULL
            ) WITHOUT ROWID""",
        ),
    ),
    (
        11,
        "when each game was dealt, and whom each move's position waited on (a table's bank clock, counted "
        "from the log: bot/sessions/clock.py)",
        (
            "ALTER TABLE matches ADD COLUMN started_at REAL",
            # The seats of the people the position before this move waited on (JSON list).
            "ALTER TABLE actions ADD COLUMN waited TEXT NOT NULL DEFAULT '[]'",
        ),
    ),
    (
        12,
        "tournaments (their players and each round's tables, bot/tournament) and servers' seasons of "
        "leaderboards",
        (
            # status: signup, running, paused, finished or cancelled; round: the current round (0 before the
            # first); announced: the last round whose pairing was posted; round_ends: when the current
            # round's games are adjudicated if still unfinished.
            """CREATE TABLE tournaments (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                guild_id INTEGER NOT NULL,
                channel_id INTEGER NOT NULL,
                message_id INTEGER,
                game_id TEXT NOT NULL,
                name TEXT NOT NULL,
                format TEXT NOT NULL,
                rounds INTEGER NOT NULL,
                round_seconds REAL NOT NULL,
                seats INTEGER NOT NULL,
                options TEXT NOT NULL DEFAULT '{}',
                adjudication TEXT NOT NULL,
                status TEXT NOT NULL,
                starts_at REAL NOT NULL,
                round INTEGER NOT NULL DEFAULT 0,
                announced INTEGER NOT NULL DEFAULT 0,
                round_ends REAL,
                paused_at REAL,
                created_by INTEGER NOT NULL,
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL,
                note TEXT NOT NULL DEFAULT ''
            )""",
            "CREATE INDEX tournaments_guild ON tournaments (guild_id, status)",
            # player: a user id as text, or "ai:<level>:<n>" for an AI entrant; dropped: the first round
            # they are no longer paired in (NULL: still in).
            """CREATE TABLE tournament_players (
                tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
                player TEXT NOT NULL,
                user_id INTEGER,
                ai TEXT,
                name TEXT NOT NULL,
                joined_at REAL NOT NULL,
                dropped INTEGER,
                PRIMARY KEY (tournament_id, player)
            ) WITHOUT ROWID""",
            # One table of a round: its players in seat order (JSON list of player keys; one player is a
            # bye), its thread and match once opened, each seat's points once over (JSON list) and how.
            """CREATE TABLE tournament_tables (
                tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
                round INTEGER NOT NULL,
                table_no INTEGER NOT NULL,
                players TEXT NOT NULL,
                thread_id INTEGER,
                match_id INTEGER,
                points TEXT,
                how TEXT NOT NULL DEFAULT '',
                PRIMARY KEY (tournament_id, round, table_no)
            ) WITHOUT ROWID""",
            "CREATE INDEX tournament_tables_match ON tournament_tables (match_id)",
            # A server's seasons (/config season_weeks): each one's span, and when its final standings
            # were posted.
            """CREATE TABLE seasons (
                guild_id INTEGER NOT NULL,
                number INTEGER NOT NULL,
                starts_at REAL NOT NULL,
                ends_at REAL NOT NULL,
                posted_at REAL,
                PRIMARY KEY (guild_id, number)
            ) WITHOUT ROWID""",
        ),
    ),
)

LATEST = MIGRATIONS[-1][0]


@functools.cache
def expected_schema(version: int) -> tuple[tuple[str, str, frozenset[str]], ...]:
    """The tables (with their columns) and indexes that the migrations up to `version` create (both backends
    check a database against it: PostgreSQL has the same tables and columns)."""
    con = sqlite3.connect(":memory:")
    try:
        for v, _title, statements in MIGRATIONS:
            if v <= version:
                for sql in statements:
                    con.execute(sql)
        rows = con.execute("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").fetchall()
        return tuple(
            (kind, name, frozenset(r[1] for r in con.execute(f"PRAGMA table_info('{name}')")))
            for kind, name in rows
        )
    finally:
        con.close()
