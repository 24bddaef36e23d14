"""The words of Siege of Olympus's images (nothing is drawn here): the banner's status or result, how a
minion or Commander is named, the open response window, the pending decision, the turn's fixed target, and the
last lines of the log, all with seat names.
"""

from __future__ import annotations

from typing import Any

from engine.games.siege_of_olympus.cards import RACES
from engine.games.siege_of_olympus.view import SiegeView
from render import kit
from render.games.siege_of_olympus.common import (
    JSON,
    _dicts,
    _int,
    _over,
    _players,
    _seat,
    _winners,
    card_name,
)


def status_text(view: SiegeView, names: list[str]) -> str:
    """The banner: the turn and whose turn it is, the setup, or the result."""
    if _over(view):
        winners = _winners(view)
        result = kit.as_dict(view.get("result"))
        why = str(result.get("why") or "")
        if len(winners) == 1:
            head = f"Game over · {kit.who(winners[0], names)} wins"
        else:
            head = "Game over · a draw" if winners else "Game over"
        return f"{head}: {why}" if why else head
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
WHAT_WORDS = {
    "enemy": "an enemy minion",
    "ally": "an ally",
    "other_minion": "another minion",
    "tartarus": "a prisoner",
    "deck": "a card from the Deck",
    "underworld": "a card from the Underworld",
    "hand": "a card from their Hand",
    "summon": "a minion to summon",
    "leave": "a card to leave in the Agora",
    "agora": "a card from the Agora",
    "artifact": "an artifact",
    "add": "a card to add",
    "striker": "a minion to strike",
    "discard": "a card to discard",
    "sacrifice": "a minion to sacrifice",
}


def what_text(what: Any) -> str:
    """What a pick is for, in words: "an enemy minion", "an enemy Titan to destroy" (a race's synergy)."""
    what = str(what or "")
    race = RACES.get(what.removeprefix("prey_")) if what.startswith("prey_") else None
    if race is not None:
        return f"an enemy {race['name']} to destroy"
    return WHAT_WORDS.get(what, what.replace("_", " ") or "a target")


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
    """The pending decision or open window in words ("Bo may respond: Ares attacks Hera"), or ""."""
    d = view.get("decision")
    if _over(view):
        return ""
    shown = window_text(view, names)
    if not isinstance(d, dict):
        return f"Now: {shown}" if shown else ""
    players = [x for x in d.get("players") or [] if _seat(x) is not None]
    who = kit.who(players[0] if players else None, names)
    source = kit.printable(str(d.get("source_name") or ""))
    kind = d.get("kind")
    if kind == "window":
        what = "Ambush or Disrupt" if d.get("window") == "attack" else "Disrupt"
        return f"Response window · {who} may {what}: {shown}" if shown else f"{who} may {what}"
    if kind == "commander":
        return f"{who} chooses a Commander"
    if kind == "mulligan":
        return f"{who} may return up to 3 cards to the Deck"
    if kind == "discard":
        return f"{who} discards down to 8 cards"
    if kind == "option":
        return f"{who} chooses an option" + (f" of {source}" if source else "")
    if kind == "order":
        return f"{who} orders their triggered abilities"
    if kind == "may":
        return f"{who} may use {source}'s ability" if source else f"{who} may use an ability"
    if kind == "pick":
        return f"{who} chooses {what_text(d.get('what'))}" + (f" for {source}" if source else "")
    return f"{who} decides ({kind})"


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
