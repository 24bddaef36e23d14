"""The export format (engine/export.py, docs/export.md): issue 26, "Replays and exports".

"`/game export` attaches the match as JSON (game, rules version, seats, seed, the action log) in a
documented format that `python -m bot replay FILE` plays back in the terminal, and from which the engine
rebuilds the final state exactly." And: "export → replay → identical final state for every game".
"""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from typing import Any

import pytest

from engine.export import (
    FORMAT,
    VERSION,
    Export,
    ExportError,
    ExportSeat,
    from_json,
    rebuild,
    rules_version_of,
    state_digest,
    to_json,
    to_text,
    turn_key,
    turn_views,
    verify,
)
from engine.match import Match
from engine.registry import games
from render.gallery import play


def exported(m: Match, status: str = "finished") -> Export:
    """A match as its export, the way the bot writes one."""
    returns = m.game.returns(m.state)
    return Export(
        game_id=m.game_id,
        rules_version=rules_version_of(m.game_id),
        seats=tuple(ExportSeat(f"Seat {i + 1}", None if i == 0 else "hard") for i in range(m.num_players)),
        seed=m.seed,
        options=m.options,
        log=tuple(m.log),
        status=status,
        shares=None if returns is None else tuple(returns),
        match_id=7,
        title=m.game.title,
        final_sha256=state_digest(m.game.to_json(m.state)),
    )


@pytest.mark.parametrize("game_id", list(games()))
@pytest.mark.parametrize("seed", [1, 2])
def test_export_then_replay_rebuilds_the_identical_final_state(game_id: str, seed: int) -> None:
    game = games()[game_id]
    for players in sorted({game.min_players, game.max_players}):
        m = play(game_id, players, seed)
        assert m.is_over()
        text = to_text(exported(m))
        back = from_json(json.loads(text))
        assert back == exported(m), "the JSON round trip keeps everything"
        rebuilt = rebuild(back)
        assert game.to_json(rebuilt.state) == game.to_json(m.state)
        check = verify(back)
        assert check.same_state is True and check.same_result is True


def test_the_document_names_its_format_version_game_seats_seed_log_and_result() -> None:
    m = play("omphala", 2, 3)
    data = to_json(exported(m))
    assert data["format"] == FORMAT and data["version"] == VERSION
    assert data["game"] == "omphala" and data["rules_version"] == rules_version_of("omphala")
    assert data["seats"] == [{"name": "Seat 1", "ai": None}, {"name": "Seat 2", "ai": "hard"}]
    assert data["seed"] == 3 and data["log"] == [[s, k] for s, k in m.log]
    assert data["result"]["status"] == "finished" and sum(data["result"]["shares"]) == pytest.approx(1)
    assert data["final"] == {"moves": len(m.log), "sha256": state_digest(m.game.to_json(m.state))}


def test_to_text_writes_one_move_a_line() -> None:
    m = play("ophion", 2, 1, steps=5)
    text = to_text(exported(m, "abandoned"))
    lines = [line.rstrip(",") for line in text.splitlines()]
    for seat, key in m.log:
        assert f"  [{seat}, {json.dumps(key)}]" in lines


def test_an_abandoned_game_has_no_result_to_check() -> None:
    m = play("ophion", 2, 1, steps=20)
    check = verify(from_json(to_json(exported(m, "abandoned"))))
    assert check.same_state is True and check.same_result is None


def test_a_changed_move_or_final_state_is_caught() -> None:
    m = play("omphala", 2, 4)
    export = exported(m)
    assert verify(replace(export, final_sha256="0" * 64)).same_state is False
    assert verify(replace(export, shares=tuple(reversed(export.shares or ())))).same_result is False
    seat, _ = export.log[3]
    with pytest.raises(ExportError, match=r"^move 4 \('nonsense' for seat \d\) is not a legal move there$"):
        rebuild(replace(export, log=(*export.log[:3], (seat, "nonsense"), *export.log[4:])))


def _document() -> dict[str, Any]:
    return to_json(exported(play("omphala", 2, 5, steps=10), "abandoned"))


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda d: [1, 2], "not an Agora match export"),
        (lambda d: {**d, "format": "chess-pgn"}, "not an Agora match export"),
        (lambda d: {**d, "version": VERSION + 1}, f"this Agora reads up to {VERSION}"),
        (lambda d: {**d, "game": "chess"}, "'chess', which this Agora does not have"),
        (lambda d: {**d, "seats": d["seats"][:1]}, '"seats": Omphala is not played by 1'),
        (lambda d: {**d, "seats": [{"ai": None}, d["seats"][1]]}, '"seats[0]" must be'),
        (lambda d: {**d, "seed": "12"}, '"seed" is missing or not a whole number'),
        (lambda d: {**d, "options": None}, '"options" is missing or not an object'),
        (
            lambda d: {**d, "log": [[5, "pass"]]},
            '"log[0]" must be [seat, action key] with a seat from 0 to 1',
        ),
        (lambda d: {**d, "result": {"status": "active"}}, "\"result.status\" is 'active'"),
        (lambda d: {**d, "result": {"status": "finished", "shares": [1]}}, "one number per seat"),
    ],
)
def test_a_wrong_document_gets_one_line_naming_what_is_wrong(change: Any, says: str) -> None:
    with pytest.raises(ExportError) as refused:
        from_json(change(_document()))
    assert says in str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.parametrize("game_id", list(games()))
def test_a_replay_shows_the_spectator_view_once_a_turn(game_id: str) -> None:
    """'one frame per turn drawn from the spectator view, duplicate frames dropped': the deal, then each
    position whose turn key (the presentation's Status.turn) differs from the one before, and the end."""
    m = play(game_id, 2, 6)
    game = m.game
    computed: list[dict[str, Any]] = []
    views = turn_views(game_id, 2, 6, None, m.log, on_view=computed.append)
    assert all(v.get("viewer") is None for v in computed)
    assert views[0] == computed[0] and views[-1] == game.view(m.state, None)
    assert all(a != b for a, b in itertools.pairwise(views)), "no frame twice in a row"
    names = [f"P{i + 1}" for i in range(2)]
    changes = sum(
        1
        for a, b in itertools.pairwise(computed)
        if turn_key(game_id, a, names) != turn_key(game_id, b, names)
    )
    assert len(views) <= changes + 2 and len(views) >= min(changes, 2)
    assert len(views) < len(m.log), "fewer frames than moves: one a turn"
