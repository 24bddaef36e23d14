"""The words only Ophidian 2350's images need (nothing is drawn here): the banner's Wave and step, how a
character is named, the attack under way, the card being played, a Funeral Pyre and the last lines of the
log, all with seat names. The result and the pending decision are the game's own words
(engine/games/ophidian/present.py).
"""

from __future__ import annotations

from typing import Any

from engine.games.ophidian import present
from engine.games.ophidian.cards import CARDS
from engine.games.ophidian.view import OphidianView
from render import kit
from render.games.ophidian.common import (
    BREATHER_STEPS,
    JSON,
    REGULAR_WAVES,
    SETUP_STEPS,
    _characters,
    _flow,
    _int,
    _over,
    _players,
    _seat,
    _stat,
    card_name,
    symbol,
)


def wave_words(view: OphidianView) -> str:
    """ "Wave 2", or "Tie Wave 5" past the 4th (RULINGS 55)."""
    wave = _int(view.get("wave"))
    return f"Tie Wave {wave}" if wave > REGULAR_WAVES else f"Wave {wave or 1}"


def step_word(view: OphidianView) -> str:
    """The current step of the setup or Breather in words ("" during a Wave)."""
    steps = dict(SETUP_STEPS if view.get("phase") == "setup" else BREATHER_STEPS)
    step = str(view.get("step") or "")
    return steps.get(step, step.replace("_", " ").capitalize())


def status_text(view: OphidianView, names: list[str]) -> str:
    """The banner: the Wave and who has The Flow, the setup or Breather step, or the game's result."""
    if _over(view):
        return kit.status_of(present, view, names).headline or "Game over"
    phase = view.get("phase")
    step = step_word(view)
    if phase == "setup":
        return f"Setup · {step}" if step else "Setup"
    if phase == "breather":
        head = f"Breather after {wave_words(view)}"
        return f"{head} · {step}" if step else head
    flow = _flow(view)
    if flow is None:
        return wave_words(view)
    return f"{wave_words(view)} · The Flow: {kit.who(flow, names)}"


def _by_uid(view: OphidianView) -> dict[int, JSON]:
    """Every character of the view by uid."""
    return {_int(c.get("uid")): c for p in _players(view) for c in _characters(p)}


def uid_text(view: OphidianView, uid: Any, names: list[str]) -> str:
    """How a text names a character of the view by uid ("Brakka Vohl"; "a character" when gone)."""
    c = _by_uid(view).get(_int(uid)) if _seat(uid) is not None else None
    if c is None:
        return "a character"
    return kit.printable(str(c.get("name") or card_name(str(c.get("card") or "?"))))


def attack_text(view: OphidianView, names: list[str]) -> str:
    """The attack under way: "Brakka Vohl → Lyra Shen", "… → Nyx Arden · Kestrel Nine intercepts", with
    "XDMG" for a direct attack ("" when there is none)."""
    a = view.get("attack")
    if not isinstance(a, dict) or _over(view):
        return ""
    attacker = uid_text(view, a.get("attacker"), names)
    target, original = a.get("target"), a.get("original", a.get("target"))
    text = f"{attacker} → {uid_text(view, original, names)}"
    if _int(original) != _int(target) or a.get("intercepted") or a.get("protected"):
        verb = "protects" if a.get("protected") else "intercepts"
        text += f" · {uid_text(view, target, names)} {verb}"
    if a.get("direct"):
        text += " · XDMG"
    return text


def playing_text(view: OphidianView, names: list[str], text: bool = False) -> str:
    """The Strategy card resolving: "Ada plays Mind Spike (+)", and its text after a colon when asked (""
    when none)."""
    p = view.get("playing")
    if not isinstance(p, dict) or _over(view):
        return ""
    cid = str(p.get("card") or "")
    name = kit.printable(str(p.get("name") or card_name(cid) or "a card"))
    sym = symbol(cid)
    out = f"{kit.who(_seat(p.get('player')), names)} plays {name}" + (f" ({sym})" if sym else "")
    spec = CARDS.get(cid)
    printed = " ".join(kit.printable(spec.text).split()) if spec is not None and text else ""
    return f"{out}: {printed}" if printed else out


def decision_text(view: OphidianView, names: list[str]) -> str:
    """The pending decision or window as the game words it for everyone ("Bo: play a response to your
    attack, or pass"), or ""."""
    return "" if _over(view) else kit.status_of(present, view, names).prompt


def pyre_text(p: JSON) -> str:
    """A Funeral Pyre's Gladiators by name, with their VP: "Sera Quill 3 VP · Rook 1 VP"."""
    out = []
    for cid in p.get("pyre") or []:
        if not isinstance(cid, str):
            continue
        out.append(f"{card_name(cid)} {_stat(cid, 'vp')} VP")
    return " · ".join(out)


def _log(view: OphidianView, names: list[str], count: int = 3) -> list[str]:
    """The last lines of the log (three, or fewer), with seat names."""
    lines = [kit.seat_refs(kit.printable(str(x)), names) for x in view.get("log") or []]
    return lines[-count:] if count > 0 else []
