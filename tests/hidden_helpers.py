"""The resampling property of issue 23, as a checker the tests run over every game and over planted leaks.

A viewer (a seat, or None for the spectator) must not be able to tell a position from any other world that
differs only in what is hidden from them. `resample` builds such a world *independently of determinize*: it
permutes each group of places the game declares hidden from the viewer (`hidden(s, viewer)`) with Python's
own RNG, without sorting the pool first, tidies with the game's `after_determinize`, and reseeds the state's
RNG (so future shuffles differ too). For the spectator it does so for every seat in turn: the spectator sees
no more than any seat (every seat reads the public board too, so a spectator view that shows more is a leak
to every seat, and the per-seat check catches it).

`check_position` then compares the original world w and the resampled w' from the viewer's side:

- view: `view(w, v) == view(w', v)`, and the public view (what the channel shows every seat) too;
- whose move: `to_act`; for a seat, its legal moves (keys) and their `describe` menu texts;
- present: the status (headline, prompt, scores, window), the viewer's prompt (`prompt_of`: the hand
  image's, the terminal's and Discord's words), the terminal board text of the view, and the images' words
  (engine/table/describe.py: the board's and the hand's alt texts, the text board);
- the log: the entries of the state's event log the viewer may read;
- determinize: `to_json(determinize(w, v, seed)) == to_json(determinize(w', v, seed))`: what determinize
  deals must depend only on what the viewer can see;
- automatic (issue 33): for every other person to act who chose *ask me*, whether the bot plays a move for
  them (and so skips their ping and new board) and why (bot/sessions/automatic.py `played_for_them`);
- events: one move legal in both worlds (of a seat to act, often someone else's) is applied to copies of
  both; the events the viewer may read must have the same texts unless the move revealed something by rule.
  A reveal by rule shows in the view after the move (the card now on the row, in play, in the viewer's
  hand), so: the two views after the move are compared with every event text blanked out of them (logs and
  "last move" lines are the events again); where they are equal the move revealed nothing to the viewer,
  and the event texts the viewer reads must be equal. "P2 draws Zeus" shown to everyone fails; "New in the
  row: Goblin" does not (the row differs), nor "You draw Zeus" to the drawer (their hand differs). An event
  only the viewer reads about their own seat (visible_to == (v,), seat=v: their own draw) is theirs by rule
  and not compared: the view may have lost the card again by the end of the move (an Ophion round that
  ends shuffles a drawn card back into the deck). The same text sent to the wrong seat is still caught.

Findings are returned, not asserted, so the planted-leak tests can run the same checker and show it reports.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from bot.sessions.automatic import played_for_them
from bot.sessions.types import ASK
from engine import eventlog
from engine.core import Action, Event, Game, PlayerId
from engine.rng import Rng
from engine.table import present as table_present
from engine.table.describe import board_alt, hand_alt, text_board

Viewer = PlayerId | None
NAMES = ("Ada", "Bo", "Cy", "Di", "Ed", "Flo")


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing a viewer could tell apart between two worlds they must not tell apart."""

    game: str
    check: str  # view, public_view, to_act, moves, menu, status, log, determinize, events
    viewer: Viewer
    detail: str
    n: int = 0  # the position: `playout(game, n, seed, step)`
    seed: int = 0
    step: int = 0

    def __str__(self) -> str:
        who = "spectator" if self.viewer is None else f"seat {self.viewer}"
        return (
            f"[{self.game}] {self.check} differs for the {who}: {self.detail} "
            f"(playout(game, n={self.n}, seed={self.seed}, steps={self.step}))"
        )


def dumps(data: Any) -> str:
    """Canonical JSON text."""
    return json.dumps(data, sort_keys=True, allow_nan=False)


def copy_state(game: Game[Any], s: Any) -> Any:
    """An independent copy, through the game's own codec."""
    return game.from_json(game.to_json(s))


def first_difference(a: Any, b: Any, path: str = "") -> str:
    """Where two JSON values first differ, e.g. "players[1].hand: ['x'] != ['y']"."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b or a[k] != b[k]:
                return first_difference(a.get(k), b.get(k), f"{path}.{k}" if path else str(k))
    elif isinstance(a, list | tuple) and isinstance(b, list | tuple) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return first_difference(x, y, f"{path}[{i}]")
    text = f"{a!r} != {b!r}"
    return f"{path or '(top)'}: {text[:300]}"


# -- resampling ------------------------------------------------------------------------------------


def _resample_table(game: Any, s: Any, observer: PlayerId, rng: random.Random) -> None:
    """Permute each of the game's hidden groups in place, unsorted, and tidy as the game does."""
    game.redeal(s, observer, rng.shuffle, sort=False)


def _resample_highcard(game: Any, s: Any, observer: PlayerId, rng: random.Random) -> None:
    """High Card (tests/toygame.py) declares no groups: the deck's order is what nobody sees."""
    rng.shuffle(s["deck"])


# A game that is not a TableGame (no `hidden`) says here what nobody sees.
RESAMPLERS: dict[str, Callable[[Any, Any, PlayerId, random.Random], None]] = {"highcard": _resample_highcard}


def resample(game: Any, s: Any, n: int, viewer: Viewer, rng: random.Random) -> Any:
    """A new world the viewer cannot tell from s: every hidden group permuted, the state's RNG reseeded."""
    w = copy_state(game, s)
    resampler = RESAMPLERS.get(game.id, _resample_table)
    for seat in range(n) if viewer is None else (viewer,):
        resampler(game, w, seat, rng)
    if hasattr(w, "rng"):
        w.rng = Rng(rng.getrandbits(64), rng.randrange(1000))
    return w


# -- the checks ------------------------------------------------------------------------------------


def _status(game: Any, view: Any) -> Any:
    pres = table_present.of(game)
    st = pres.status(view, NAMES)
    panel = table_present.panel_text(pres, view, NAMES, 34)  # the terminal app's board panel
    asked = table_present.prompt_of(pres, view, NAMES)  # the hand image's, the terminal's and Discord's
    # The images' words (issue 37): the board's alt text (a spectator's view is the public board), the hand
    # image's alt text and the text board of /notify board:text.
    title = getattr(game, "title", game.id)
    words = (
        board_alt(pres, title, view, NAMES),
        hand_alt(pres, view, NAMES),
        text_board(pres, title, view, NAMES),
    )
    return (st.headline, st.prompt, st.scores, st.window, pres.board_text(view, NAMES), panel, asked, *words)


def _log(s: Any, viewer: Viewer) -> list[str]:
    log = getattr(s, "log", None)
    return eventlog.visible(log, viewer, shown=len(log)) if isinstance(log, list) else []


def _moves(game: Any, s: Any, seat: PlayerId) -> list[tuple[str, tuple[str, ...]]]:
    return [(a.key, tuple(game.describe(s, a))) for a in game.legal_actions(s, seat)]


def _blank(data: Any, texts: list[str]) -> Any:
    """A JSON value with every string that holds one of these event texts replaced by "<event>"."""
    if isinstance(data, str):
        return "<event>" if any(t and t in data for t in texts) else data
    if isinstance(data, dict):
        return {k: _blank(v, texts) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_blank(v, texts) for v in data]
    return data


def _own(e: Event, viewer: Viewer) -> bool:
    """An event only the viewer reads, about their own seat ("You draw Zeus"): by rule it tells them their
    own cards, which the view may no longer show once the move is over (an Ophion round can end with the
    cards just drawn shuffled back into the deck), so it may differ between worlds."""
    if viewer is None or e.visible_to != (viewer,):
        return False
    return any(k == "seat" and v == viewer for k, v in e.args)


def _events(game: Any, w: Any, w2: Any, viewer: Viewer, rng: random.Random) -> str | None:
    """Apply one move legal in both worlds; the difference in what the viewer reads, or None."""
    to_act = game.to_act(w)
    if not to_act:
        return None
    seat = to_act[rng.randrange(len(to_act))]
    legal2 = {a.key for a in game.legal_actions(w2, seat)}
    both = [a for a in game.legal_actions(w, seat) if a.key in legal2]
    if not both:
        return None
    move: Action = both[rng.randrange(len(both))]
    a, b = copy_state(game, w), copy_state(game, w2)
    ea = game.apply(a, move)
    try:
        eb = game.apply(b, move)
    except Exception as e:  # the resampled world is not a state the game can go on from
        return f"after {move.key} by seat {seat}, only in the resampled world: {type(e).__name__}: {e}"

    def read(events: list[Event]) -> list[str]:
        return [e.text for e in events if e.visible(viewer) and not _own(e, viewer)]

    ta, tb = read(ea), read(eb)
    if ta == tb:
        return None
    texts = sorted({e.text for e in ea + eb if e.visible(viewer)}, key=len, reverse=True)
    after = [_blank(game.view(x, viewer), texts) for x in (a, b)]
    if viewer is not None:
        after += [_blank(game.view(x, None), texts) for x in (a, b)]
    if dumps(after[0]) != dumps(after[1]) or (viewer is not None and dumps(after[2]) != dumps(after[3])):
        return None  # the move revealed something by rule: the viewer's board differs
    width = max(len(ta), len(tb))
    pairs = zip(ta + [""] * (width - len(ta)), tb + [""] * (width - len(tb)), strict=True)
    diff = next(((x, y) for x, y in pairs if x != y), ("", ""))
    return f"after {move.key} by seat {seat}: {diff[0]!r} != {diff[1]!r}"


def _automatic(game: Any, s: Any, seat: PlayerId, n: int) -> tuple[str, str] | None:
    """Whether (and why; the key's kind) the bot plays for the person in `seat`, who chose *ask me*."""
    window = bool(table_present.of(game).status(game.view(s, None), NAMES[:n]).window)
    found = played_for_them(game, s, seat, players=n, seed=7, window=window, setting=ASK, can_undo=False)
    return None if found is None else (found[0].split(":")[0], found[1])


def check_position(
    game: Any, s: Any, viewer: Viewer, rng: random.Random, at: tuple[int, int, int] = (0, 0, 0)
) -> list[Finding]:
    """Everything this viewer reads must be the same in s and in a resampled world."""
    gid = game.id
    found: list[Finding] = []

    def report(check: str, detail: str) -> None:
        found.append(Finding(gid, check, viewer, detail, *at))

    n = at[0] or game.min_players
    w2 = resample(game, s, n, viewer, rng)
    va, vb = game.view(s, viewer), game.view(w2, viewer)
    if dumps(va) != dumps(vb):
        report("view", first_difference(va, vb))
    if viewer is not None:
        pa, pb = game.view(s, None), game.view(w2, None)
        if dumps(pa) != dumps(pb):
            report("public_view", first_difference(pa, pb))
    if game.to_act(s) != game.to_act(w2):
        report("to_act", f"{game.to_act(s)} != {game.to_act(w2)}")
    if viewer is not None:
        ma, mb = _moves(game, s, viewer), _moves(game, w2, viewer)
        ka, kb = [k for k, _ in ma], [k for k, _ in mb]
        if ka != kb:
            report(
                "moves",
                f"only here: {sorted(set(ka) - set(kb))[:5]}, only there: {sorted(set(kb) - set(ka))[:5]}",
            )
        elif ma != mb:
            report("menu", next(f"{x} != {y}" for x, y in zip(ma, mb, strict=True) if x != y))
    if _status(game, va) != _status(game, vb):
        report("status", first_difference(list(_status(game, va)), list(_status(game, vb))))
    if _log(s, viewer) != _log(w2, viewer):
        report("log", first_difference(_log(s, viewer), _log(w2, viewer)))
    if viewer is not None:
        seed = rng.getrandbits(32)
        da, db = (
            game.to_json(game.determinize(s, viewer, seed)),
            game.to_json(game.determinize(w2, viewer, seed)),
        )
        if dumps(da) != dumps(db):
            report("determinize", first_difference(da, db))
    if viewer is not None:
        for seat in game.to_act(s):
            if seat != viewer and (a := _automatic(game, s, seat, n)) != (b := _automatic(game, w2, seat, n)):
                report("automatic", f"seat {seat}: {a} != {b}")
    if not found:
        diff = _events(game, s, w2, viewer, rng)
        if diff is not None:
            report("events", diff)
    return found


# -- positions -------------------------------------------------------------------------------------


def positions(game: Any, n: int, seed: int, every: int, limit: int) -> Iterator[tuple[int, Any]]:
    """(step, state) of one seeded random game: one position every `every` moves (offset by the seed, so
    games meet their turns, windows and choices at different phases), and the end, up to `limit`."""
    rng = random.Random(seed)
    s = game.setup(n, seed)
    step, got = 0, 0
    while got < limit:
        to_act = game.to_act(s)
        if (step + seed) % every == 0 or not to_act:
            yield step, s
            got += 1
        if not to_act:
            return
        seat = to_act[rng.randrange(len(to_act))]
        legal = game.legal_actions(s, seat)
        game.apply(s, legal[rng.randrange(len(legal))])
        step += 1


def playout(game: Any, n: int, seed: int, steps: int) -> Any:
    """The state after `steps` moves of the random game of `positions(game, n, seed, ...)`: a reproducer."""
    for step, s in positions(game, n, seed, 1, steps + 1):
        if step == steps:
            return s
    raise ValueError(f"the game ended before {steps} moves")


Known = Callable[[Finding], bool]


def sweep(
    game: Any, count: int, seed: int = 0, every: int = 7, per_game: int = 12, known: Known | None = None,
    stop_after: int = 0,
) -> tuple[int, list[Finding]]:  # fmt: skip
    """Check `count` positions of random games of every player count, each against every seat and the
    spectator: the number of positions checked and the findings not `known` (stopping once `stop_after`
    are in, if set)."""
    counts = list(range(game.min_players, game.max_players + 1))
    rng = random.Random(f"{game.id}:{seed}")
    done, found, g = 0, [], 0
    while done < count:
        n, gseed = counts[g % len(counts)], seed * 1000 + g
        for step, s in positions(game, n, gseed, every, min(per_game, count - done)):
            for viewer in [*range(n), None]:
                got = check_position(game, s, viewer, rng, (n, gseed, step))
                found += [f for f in got if known is None or not known(f)]
            done += 1
            if stop_after and len(found) >= stop_after:
                return done, found
        g += 1
    return done, found
