"""The words only Siege of Olympus's images need (nothing is drawn here): the banner's turn, how a minion
or Commander is named, what waits on an open response window, the turn's fixed target, and the last lines of
the log, all with seat names. The result and the pending decision are the game's own words
(engine/games/siege_of_olympus/present.py).
"""

from __future__ import annotations

from typing import Any

from engine.games.siege_of_olympus import present
from engine.games.siege_of_olympus.view import SiegeView
from render import kit
from render.games.siege_of_olympus.common import (
    JSON,
    _dicts,
    _int,
    _over,
    _players,
    _seat,
    card_name,
)


def status_text(view: SiegeView, names: list[str]) -> str:
    """The banner: the turn and whose turn it is, the setup, or the game's result."""
    if _over(view):
        return kit.status_of(present, view, names).headline or "Game over"
    if view.get("phase") == "setup":
        return "Setup · Commanders and mulligans"
    return f"Turn {_int(view.get('turn')) or 1} · {kit.who(_seat(view.get('active')), names)}'s turn"


def _minions(view: SiegeView) -> dict[int, JSON]:
    """Every minion of the view (both sides and Tartarus) by uid."""
    out: dict[int, JSON] = {}
    for p in _players(view):
        for m in _dicts(p.get("minions")):
            out[_int(m.get("uid"))] = m
    for m in _dicts(view.get("tartarus")):
        out[_int(m.get("uid"))] = m
    return out


def uid_text(view: SiegeView, uid: Any, names: list[str]) -> str:
    """How a text names a minion or Commander of the view by uid ("Hera", "Bo's Commander")."""
    for seat, p in enumerate(_players(view)):
        if _int(p.get("commander_uid")) and p.get("commander_uid") == uid:
            return f"{kit.who(seat, names)}'s Commander"
    m = _minions(view).get(_int(uid))
    if m is None:
        return "a minion"
    name = kit.printable(str(m.get("name") or card_name(str(m.get("card")))))
    return f"the prisoner {name}" if _int(m.get("owner")) < 0 else name


WINDOW_WORDS = {"summon": "summons", "spell": "plays", "action": "uses", "once": "uses"}


def window_text(view: SiegeView, names: list[str]) -> str:
    """What waits on the response window: "Ares attacks Hera", "Bo plays Thunderbolt" ("" for none)."""
    w = view.get("window")
    if not isinstance(w, dict):
        return ""
    who = kit.who(_seat(w.get("player")), names)
    card = kit.printable(str(w.get("card_name") or card_name(str(w.get("card") or "")) or "a card"))
    kind = w.get("kind")
    if kind == "attack":
        text = f"{uid_text(view, w.get('attacker'), names)} attacks {uid_text(view, w.get('target'), names)}"
    elif kind == "once":
        text = f"{who} uses {card}'s ability"
    else:
        text = f"{who} {WINDOW_WORDS.get(str(kind), 'plays')} {card}"
    return text + (" (negated)" if w.get("negated") else "")


def decision_text(view: SiegeView, names: list[str]) -> str:
    """The pending decision as the game words it for everyone, then what waits on an open response window:
    "Bo: answer Ares's attack with Ambush or Disrupt, or pass · Now: Ares attacks Bo's Commander" ("" for
    neither)."""
    if _over(view):
        return ""
    shown = window_text(view, names)
    pending = kit.status_of(present, view, names).prompt
    return " · ".join(x for x in (pending, f"Now: {shown}" if shown else "") if x)


def target_text(view: SiegeView, names: list[str]) -> str:
    """The turn's fixed attack target ("" when none is fixed yet; "gone" once it left the field, when no
    more minion may be attacked this turn: RULINGS 18)."""
    uid = _int(view.get("target"))
    if not uid:
        return ""
    on_field = {_int(m.get("uid")) for p in _players(view) for m in _dicts(p.get("minions"))}
    return uid_text(view, uid, names) if uid in on_field else "gone"


def _log(view: SiegeView, names: list[str], count: int = 3) -> list[str]:
    """The last lines of the log (three, or fewer), with seat names."""
    return [kit.seat_refs(str(x), names) for x in view.get("log") or []][-count:] if count > 0 else []
