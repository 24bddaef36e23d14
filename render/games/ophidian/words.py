"""The words of Ophidian 2350's images (nothing is drawn here): the banner's status or result, the Wave and
step, how a character is named, the attack under way, the card being played, the pending decision or
response window, and the last lines of the log, all with seat names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.games.ophidian.cards import CARDS
from engine.games.ophidian.view import OphidianView
from engine.table.present import plural
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
    _winners,
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
    """The banner: the Wave and who has The Flow, the setup or Breather step, or the result."""
    if _over(view):
        winners = _winners(view)
        result = kit.as_dict(view.get("result"))
        why = kit.printable(str(result.get("why") or ""))
        if len(winners) == 1:
            head = f"Game over · {kit.who(winners[0], names)} wins"
        else:
            head = "Game over · a draw" if winners or result else "Game over"
        return f"{head}: {why}" if why else head
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


WINDOW_WORDS = {  # the window's event -> (what may answer it, what happened)
    "ally_attacked": ("DR or R", "attack"),
    "ally_attacks": ("OR or R", "attack"),
    "blocked": ("OR or R", "blocked"),
    "enemy_plays": ("DR or R", "plays"),
    "ally_defeated": ("R", "defeated"),
}


def window_text(view: OphidianView, names: list[str]) -> str:
    """What the open response window answers, in words ("" when no window is open)."""
    d = view.get("decision")
    if not isinstance(d, dict) or d.get("kind") != "window":
        return ""
    _, what = WINDOW_WORDS.get(str(d.get("window")), ("", ""))
    attack, playing = attack_text(view, names), playing_text(view, names)
    source = kit.printable(str(d.get("source_name") or ""))
    if what in ("attack", "blocked") and attack:
        return attack
    if what == "plays" and playing:
        return playing
    if what == "defeated":
        return f"{source} was defeated" if source else "a character was defeated"
    return attack or playing or source


def window_subject(view: OphidianView, names: list[str]) -> str:
    """What a window answers, short, for a line under the attack or the card being played it names: "the
    attack", "Mind Spike", "Lyra Shen's defeat"."""
    d = kit.as_dict(view.get("decision"))
    _, what = WINDOW_WORDS.get(str(d.get("window")), ("", ""))
    p = view.get("playing") if isinstance(view.get("playing"), dict) else None
    source = kit.printable(str(d.get("source_name") or ""))
    if what in ("attack", "blocked") and isinstance(view.get("attack"), dict):
        return "the blocked attack" if what == "blocked" else "the attack"
    if what == "plays" and p is not None:
        return kit.printable(str(p.get("name") or card_name(str(p.get("card") or "")))) or "the card"
    if what == "defeated":
        return f"{source}'s defeat" if source else "the defeat"
    return source or "what happened"


def _who(d: Mapping[str, Any], names: list[str]) -> str:
    players = [x for x in d.get("players") or [] if _seat(x) is not None]
    return " and ".join(kit.who(x, names) for x in players) if players else "?"


DECISION_WORDS = {  # kind -> what the deciding player does (words after their name)
    "bottom": "puts cards on the bottom of their Arsenal",
    "arrange": "arranges their characters",
    "cheer": "may spend 1 Cheer to turn the + into −",
    "scrap": "may scrap cards from their hand",
    "maintain": "chooses what to Maintain",
    "promote": "may promote a Gladiator",
    "reinforce": "may bring in a Reinforcement",
    "order": "orders their triggers",
}
BOTH_WORDS = {  # the same, when both players decide at once
    "bottom": "put cards on the bottom of their Arsenals",
    "arrange": "arrange their characters",
    "scrap": "may scrap cards from their hands",
    "maintain": "choose what to Maintain",
    "promote": "may promote a Gladiator",
    "reinforce": "may bring in a Reinforcement",
}
# What a pick is for (the selector or cost it chooses): (third person, second person).
PICK_WORDS = {
    "enemy": ("an enemy character", "an enemy character"),
    "ally": ("a character of theirs", "a character of yours"),
    "other_ally": ("another character of theirs", "another character of yours"),
    "enemy_pump": ("an enemy Pump", "an enemy Pump"),
    "attacker": ("a character to attack with", "a character to attack with"),
    "attack": ("a character to attack", "a character to attack"),
    "discard": ("a card to scrap from their hand", "a card to scrap from your hand"),
    "recover": ("a card from their Scrap pile", "a card from your Scrap pile"),
    "deploy": ("a Minion to put into play", "a Minion to put into play"),
}


def pick_words(what: Any, you: bool = False) -> str:
    """What a pick chooses, in words ("an enemy character"; "a target" when unknown)."""
    words = PICK_WORDS.get(str(what or ""))
    if words is not None:
        return words[1 if you else 0]
    return str(what).replace("_", " ") if what else "a target"


def defend_text(view: OphidianView, names: list[str], d: Mapping[str, Any]) -> str:
    """What a defend decision is about: "the attack on Vashti Cole", "Mind Spike's damage to Vashti Cole"."""
    on = uid_text(view, d.get("uid"), names) if d.get("uid") is not None else ""
    source = kit.printable(str(d.get("source_name") or ""))
    if d.get("about") == "damage":
        what = f"{source}'s damage" if source else "the damage"
        return f"{what} to {on}" if on else what
    return f"the attack on {on}" if on else "the attack"


def decision_text(view: OphidianView, names: list[str]) -> str:
    """The pending decision or window in words ("Bo may respond (DR or R): Brakka Vohl → Lyra Shen"), or
    ""."""
    d = view.get("decision")
    if _over(view) or not isinstance(d, dict):
        return ""
    who = _who(d, names)
    kind = str(d.get("kind") or "")
    source = kit.printable(str(d.get("source_name") or ""))
    of = f" for {source}" if source else ""
    if kind == "window":
        answers, _ = WINDOW_WORDS.get(str(d.get("window")), ("a response", ""))
        return f"{who} may respond ({answers}) to {window_subject(view, names)}"
    if kind == "may":
        return f"{who} may use {source}" if source else f"{who} may use an ability"
    if kind == "pick":
        return f"{who} chooses {pick_words(d.get('what'))}{of}"
    if kind == "defend":
        return f"{who} may Intercept or Protect against {defend_text(view, names, d)}"
    if kind in BOTH_WORDS and len([x for x in d.get("players") or [] if _seat(x) is not None]) > 1:
        return f"{who} {BOTH_WORDS[kind]}"
    if kind == "bottom" and _int(d.get("owe")):
        owe = _int(d.get("owe"))
        return f"{who} puts {plural(owe, 'card')} on the bottom of their Arsenal"
    if kind in DECISION_WORDS:
        return f"{who} {DECISION_WORDS[kind]}"
    return f"{who} decides: {kind.replace('_', ' ') or 'a choice'}{of}"


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
