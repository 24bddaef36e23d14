"""Tutorials: a guided first game of each game, and its rules on one page (read by every front end).

A game teaches itself with a `learn` module beside its present module (engine/games/<id>/learn.py) whose
`TUTORIAL` is a `Tutorial`: a fixed deal (seed, players, options) on which the game's core ideas come up
early, the list of those ideas, the guided steps and the one-page "how to play". The learner plays the
first seat (LEARNER) against AI seats of level `level`; the match is marked with the option LEARN, which
keeps it out of ratings and stats.

The guide is derived from the match's log alone (`follow`), so nothing about a lesson is stored: at each of
the learner's decisions with a real choice (two legal moves or more), the first remaining step whose `move`
pattern matches one of their legal moves is the step of that decision, and its move is the suggested one;
steps passed over on the way are missed (a wrong move earlier can make a step's move impossible). A step's
move is a suggestion: any legal move is accepted, and one other than the suggested gets its `why` said after
it. When every step has been used the guided part is over and the learner plays on freely with hints.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import JSON, Action, Game, PlayerId, find_action

LEARN = "learn"  # the option key of a practice game: its value is the tutorial's game id
LEARNER: PlayerId = 0  # the learner's seat; every other seat is an AI of the tutorial's level


@dataclass(frozen=True, slots=True)
class Idea:
    """One of a game's core ideas, as the tutorial teaches it and its summary names it."""

    id: str  # "pair", "steal"
    name: str  # "The face-down pair"
    text: str  # what it is, in one plain sentence


@dataclass(frozen=True, slots=True)
class Step:
    """One guided decision of the learner: what to do now and why, the rule it teaches, the move."""

    say: str  # two or three plain sentences: what to do now and why (only what the learner can see)
    rule: str  # one sentence of the game's rule text, quoted exactly (a test finds it in RULES.txt)
    move: str  # a regular expression the suggested move's key matches in full ("attack:.*")
    ideas: tuple[str, ...] = ()  # the ids of the ideas this step introduces
    why: str = ""  # said after another move was made instead: what the suggested one would have shown

    def suggests(self, legal: Sequence[Action]) -> Action | None:
        """The first of these legal moves that this step's pattern matches, or None."""
        pattern = re.compile(self.move)
        return next((a for a in legal if pattern.fullmatch(a.key)), None)


@dataclass(frozen=True, slots=True)
class Page:
    """How to play on one page: what `/rules` and the terminal's `h` open with."""

    summary: str  # the game in two to four plain sentences
    turn: tuple[str, ...]  # a turn, step by step, each a short line
    win: str  # how the game ends and who wins, in a sentence or two
    parts: tuple[tuple[str, str], ...]  # the parts of the sample board: (name, where it is and what it is)
    sample: int = 0  # the tutorial's scripted moves played before the sample board is drawn


@dataclass(frozen=True, slots=True)
class Tutorial:
    """A game's guided first game: the deal, the ideas it teaches, the steps and the one-page rules."""

    game_id: str
    seed: int  # the fixed deal
    ideas: tuple[Idea, ...]
    steps: tuple[Step, ...]
    page: Page
    options: JSON = field(default_factory=dict)  # the setup options (seat choices: the learner's team)
    players: int = 2
    level: str = "easy"
    welcome: str = ""  # said before the first step: what this game is about, in a sentence or two

    def idea(self, idea_id: str) -> Idea:
        """The idea with this id (KeyError otherwise)."""
        for idea in self.ideas:
            if idea.id == idea_id:
                return idea
        raise KeyError(idea_id)

    def match_options(self) -> JSON:
        """The options a practice match of this tutorial is set up with: the tutorial's and LEARN."""
        return {**self.options, LEARN: self.game_id}


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the learner did at one guided step."""

    step: int  # the index of the step
    chosen: str  # the key of the move made
    suggested: str  # the key of the move the step suggested
    chosen_path: tuple[str, ...] = ()  # the moves' menu paths (game.describe), for the guide's words
    suggested_path: tuple[str, ...] = ()

    @property
    def followed(self) -> bool:
        """Whether the learner made the suggested move."""
        return self.chosen == self.suggested


@dataclass(frozen=True, slots=True)
class Guide:
    """Where a learner stands in their tutorial, from the match's log (see the module doc)."""

    tutorial: Tutorial
    step: int | None = None  # the step of the learner's decision now (None: no guided decision now)
    suggested: str | None = None  # that step's move
    outcomes: tuple[Outcome, ...] = ()  # the guided steps done, in order
    missed: tuple[int, ...] = ()  # steps passed over (their move was not open when their turn came)
    just: Outcome | None = None  # the learner's last move, when it was a guided one (the guide answers it)

    @property
    def last(self) -> Outcome | None:
        """The learner's last guided move, if any."""
        return self.outcomes[-1] if self.outcomes else None

    @property
    def done(self) -> bool:
        """Whether the guided part is over (every step used or missed)."""
        return self.step is None and self.next_step >= len(self.tutorial.steps)

    @property
    def next_step(self) -> int:
        """The index of the first step not used or missed yet."""
        used = [o.step for o in self.outcomes] + list(self.missed)
        return max(used) + 1 if used else 0

    @property
    def met(self) -> tuple[Idea, ...]:
        """The ideas the learner has met: those of the steps done (and of the step now), in list order."""
        steps = [o.step for o in self.outcomes] + ([self.step] if self.step is not None else [])
        ids = {i for s in steps for i in self.tutorial.steps[s].ideas}
        return tuple(idea for idea in self.tutorial.ideas if idea.id in ids)

    @property
    def unmet(self) -> tuple[Idea, ...]:
        """The ideas no step done has shown (a step missed after a different move)."""
        met = set(self.met)
        return tuple(idea for idea in self.tutorial.ideas if idea not in met)


def of(game: Game[Any]) -> Tutorial | None:
    """The game's tutorial (the `learn` module beside its class: engine/games/<id>/learn.py), or None."""
    package = type(game).__module__.rpartition(".")[0]
    if not package:
        return None
    try:
        module = importlib.import_module(f"{package}.learn")
    except ModuleNotFoundError as e:
        if e.name != f"{package}.learn":
            raise
        return None
    found = getattr(module, "TUTORIAL", None)
    return found if isinstance(found, Tutorial) else None


def practice(options: Mapping[str, Any] | None) -> str | None:
    """The game id of the tutorial a match with these options is, or None for a real game."""
    found = (options or {}).get(LEARN)
    return found if isinstance(found, str) else None


def _choosing(game: Game[Any], state: Any, seat: PlayerId) -> list[Action]:
    """The seat's legal moves when it has a real choice (two or more), else []."""
    legal = game.legal_actions(state, seat)
    return legal if len(legal) > 1 else []


def _find(steps: Sequence[Step], first: int, legal: Sequence[Action]) -> tuple[int, Action] | None:
    """The first step from `first` on whose move is among these legal moves, with that move."""
    for i in range(first, len(steps)):
        if (found := steps[i].suggests(legal)) is not None:
            return i, found
    return None


def follow(game: Game[Any], tutorial: Tutorial, log: Sequence[tuple[PlayerId, str]]) -> Guide:
    """The learner's guide after this log (the match's (seat, key) pairs from the deal on): the guided steps
    done, those missed, and the step and suggested move of their decision now (the first legal move, in the
    rules' order, that the step's pattern matches). Replays the log from the tutorial's deal as far as the
    guided part goes and the learner's next choice after it: a few dozen moves."""
    state = game.setup(tutorial.players, tutorial.seed, tutorial.match_options())
    seat, steps = LEARNER, tutorial.steps
    outcomes: list[Outcome] = []
    missed: list[int] = []
    first = 0

    def at_decision() -> tuple[int, Action] | None:
        legal = _choosing(game, state, seat) if seat in game.to_act(state) else []
        return _find(steps, first, legal) if legal else None

    just: Outcome | None = None
    for mover, key in log:
        if mover == seat and _choosing(game, state, seat):  # a lone move played for them keeps the answer
            if first >= len(steps):  # past the guided part, and they have chosen since: nothing more to say
                return Guide(tutorial, None, None, tuple(outcomes), tuple(missed))
            just = None
            if (found := at_decision()) is not None:
                i, suggested = found
                missed += range(first, i)
                made = find_action(game, state, mover, key)
                paths = tuple(game.describe(state, made)), tuple(game.describe(state, suggested))
                just = Outcome(i, key, suggested.key, *paths)
                outcomes.append(just)
                first = i + 1
        game.apply(state, find_action(game, state, mover, key))
    now = at_decision() if first < len(steps) else None
    if now is None:
        return Guide(tutorial, None, None, tuple(outcomes), tuple(missed), just)
    i, suggested = now
    return Guide(tutorial, i, suggested.key, tuple(outcomes), (*missed, *range(first, i)), just)


def sample_state(game: Game[Any], tutorial: Tutorial) -> Any:
    """The state the one-page rules draw as the sample board: the tutorial's deal after `page.sample`
    moves, the learner making the suggested moves of the steps in order (else their first legal move) and
    every other seat its first legal move; pure and the same every time."""
    state = game.setup(tutorial.players, tutorial.seed, tutorial.match_options())
    first = 0
    for _ in range(tutorial.page.sample):
        to_act = game.to_act(state)
        if not to_act:
            break
        seat = LEARNER if LEARNER in to_act else to_act[0]
        legal = game.legal_actions(state, seat)
        move = legal[0]
        if seat == LEARNER and (found := _find(tutorial.steps, first, legal)) is not None:
            first, move = found[0] + 1, found[1]
        game.apply(state, move)
    return state


def page_lines(title: str, page: Page) -> list[str]:
    """The one-page rules in words (the terminal's `h`, the picture's text and its alt text): the summary,
    a turn step by step, the sample board's parts, how to win."""
    lines = [f"How to play {title}", page.summary, "", "A turn:"]
    lines += [f"{i}. {step}" for i, step in enumerate(page.turn, 1)]
    lines += ["", "On the sample board:"]
    lines += [f"• {name}: {what}" for name, what in page.parts]
    return [*lines, "", f"How to win: {page.win}"]


def quoted(rule: str) -> str:
    """A rule sentence as the guide quotes it: in quotation marks, whitespace made single."""
    return f"“{' '.join(rule.split())}”"


def step_lines(guide: Guide, bold: str = "") -> list[str]:
    """The words of the learner's step now: its number, what to do and why, the rule it quotes; [] when no
    step is theirs now. `bold` wraps the heading ("**" for Discord)."""
    if guide.step is None:
        return []
    steps = guide.tutorial.steps
    step = steps[guide.step]
    head = f"{bold}📘 Lesson {guide.step + 1} of {len(steps)}{bold}"
    return [head, step.say, f"Rule: {quoted(step.rule)}"]


def feedback_lines(just: Outcome | None, tutorial: Tutorial, bold: str = "") -> list[str]:
    """What the guide says about a guided move just made (`just`): a tick for the suggested move; for
    another, that it was played, what the lesson suggested and why. [] for no guided move."""
    if just is None:
        return []
    if just.followed:
        return ["✓ That's the move this lesson was about."]
    step = tutorial.steps[just.step]
    made, meant = (" › ".join(p) for p in (just.chosen_path, just.suggested_path))
    return [
        f"↪ You played {bold}{made}{bold} — that's allowed, and the game goes on.",
        f"The lesson suggested {bold}{meant}{bold}: {step.why or step.say}",
    ]


def ending_lines(guide: Guide) -> list[str]:
    """What the tutorial says when the guided part is over: the ideas met, those still to meet, and that
    the game goes on freely with hints."""
    met = ", ".join(i.name for i in guide.met)
    lines = [f"🎓 That was the last lesson. You have met: {met}." if met else "🎓 The lessons are over."]
    if guide.unmet:
        lines.append("Still to meet in a game: " + "; ".join(f"{i.name} ({i.text})" for i in guide.unmet))
    lines.append("Play on as you like: hints are on. When the game ends you can start a real table.")
    return lines


def guide_lines(guide: Guide, over: bool = False, bold: str = "") -> list[str]:
    """Everything the guide says to the learner now, in order: the answer to their last guided move, the
    end of the lessons right after the last one, the welcome before the first step, and the step now; once
    the game is `over`, what was learned."""
    if over:
        return summary_lines(guide)
    lines = feedback_lines(guide.just, guide.tutorial, bold)
    if guide.done and guide.just is not None:
        lines += ending_lines(guide)
    if guide.step is not None and not guide.outcomes and guide.tutorial.welcome:
        lines.append(guide.tutorial.welcome)
    return lines + step_lines(guide, bold)


def summary_lines(guide: Guide) -> list[str]:
    """What a finished practice game says: what was learned, idea by idea."""
    lines = ["🎓 What you learned:"]
    lines += [f"• {i.name}: {i.text}" for i in guide.met]
    if guide.unmet:
        lines.append("Still to meet: " + ", ".join(i.name for i in guide.unmet) + ".")
    return lines


def in_rules(rule: str, text: str) -> bool:
    """Whether a quoted rule sentence is in a rule text (whitespace and line breaks ignored)."""
    return " ".join(rule.split()) in " ".join(text.split())


MARK = "👉 "  # before each menu label on the way to the suggested move


def unmarked(label: str) -> str:
    """A menu label without the mark on the way to the suggested move."""
    return label.replace(MARK, "")


def marked(paths: Sequence[tuple[str, ...]], suggested: int) -> list[tuple[str, ...]]:
    """Menu paths with the way to the suggested move (index `suggested`) marked: at each level, the label
    of every path that shares the suggested path up to there starts with MARK, so a nested menu groups
    them as before and shows the way."""
    way = paths[suggested]
    out = []
    for path in paths:
        same = 0
        while same < min(len(path), len(way)) and path[same] == way[same]:
            same += 1
        out.append(tuple(MARK + label if d < same else label for d, label in enumerate(path)))
    return out
