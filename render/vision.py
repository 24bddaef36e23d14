"""The colour checks: how far apart a palette's colours stay for colour-blind eyes, and how well text reads.

Every renderer declares the colours that tell things apart (kit.palettes and a game module's
`palettes(theme)`); here each group is seen with normal vision and through simulated protanopia, deuteranopia
and tritanopia (coloraide, Brettel/Viénot at severity 1), and each pair's CIEDE2000 distance is measured. A
pair closer than MIN_DELTA fails unless the palette names a cue other than colour that tells it apart.
Text is checked by its WCAG 2.1 contrast ratio on the colour it is drawn on. Used by tests/render/
test_colours.py and by the gallery (python -m render.gallery), never by the bot: coloraide is a test extra.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations
from types import ModuleType

from coloraide import Color

from render import api, kit

VISIONS = ("normal", "protan", "deutan", "tritan")  # normal vision, protanopia, deuteranopia, tritanopia
VISION_NAMES = {"normal": "normal", "protan": "protanopia", "deutan": "deuteranopia", "tritan": "tritanopia"}
# ΔE00 ≥ 10: "clearly different at a glance". About 1 is a just-noticeable difference side by side, 2–10 is
# perceptible on a close look; for small marks on a busy board, seen apart, categorical colour coding wants
# 10 or more (Szafir 2017, "Modeling Color Difference for Visualization Design"; Gramazio et al. 2017,
# Colorgorical, which uses ΔE00 as its perceptual distance between category colours).
MIN_DELTA = 10.0
MIN_CONTRAST = 4.5  # WCAG 2 AA for normal text


@cache
def _seen(rgb: kit.RGB, vision: str) -> Color:
    colour = Color("srgb", [c / 255 for c in rgb])
    return colour if vision == "normal" else colour.filter(vision, 1.0).clip()


def distance(a: kit.RGB, b: kit.RGB, vision: str = "normal") -> float:
    """The CIEDE2000 distance between two colours as seen with this vision (see VISIONS)."""
    return float(_seen(a, vision).delta_e(_seen(b, vision), method="2000"))


def contrast(ink: kit.RGB, ground: kit.RGB) -> float:
    """The WCAG 2.1 contrast ratio of an ink on a ground (1 to 21)."""
    return float(_seen(ink, "normal").contrast(_seen(ground, "normal"), method="wcag21"))


def too_faint(pairs: list[kit.TextPair]) -> list[str]:
    """The text inks below MIN_CONTRAST on their ground, each as "what: ratio" (none: all read)."""
    return [
        f"{what}: {ratio:.2f}"
        for what, ink, ground in pairs
        if (ratio := contrast(ink, ground)) < MIN_CONTRAST
    ]


@dataclass(frozen=True, slots=True)
class Pair:
    """Two colours of one group as one vision sees them: their distance and the cue besides colour."""

    game: str
    theme: str
    group: str
    a: str
    b: str
    vision: str
    delta: float
    cue: str

    @property
    def fails(self) -> bool:
        """Closer than MIN_DELTA with nothing but colour to tell them apart."""
        return self.delta < MIN_DELTA and not self.cue


def palettes(game_id: str, theme: str) -> dict[str, kit.Palette]:
    """Every group a game's images draw in this theme: the kit's and the game's own (when it declares any)."""
    t = kit.theme(theme)
    found: ModuleType | None = api.module(game_id)
    own = found.palettes(t) if found is not None and hasattr(found, "palettes") else {}
    return {**kit.palettes(t), **own}


def pairs(game_id: str, theme: str) -> list[Pair]:
    """Every pair of every group of a game's palettes, under every vision."""
    out = []
    for group, palette in palettes(game_id, theme).items():
        for (a, ca), (b, cb) in combinations(palette.colours.items(), 2):
            cue = palette.cue_of(a, b)
            for vision in VISIONS:
                out.append(Pair(game_id, theme, group, a, b, vision, distance(ca, cb, vision), cue))
    return out


def worst(found: list[Pair], vision: str, cued: bool = False) -> Pair | None:
    """The closest pair seen with this vision, among the pairs without a cue (or all, when cued)."""
    shown = [p for p in found if p.vision == vision and (cued or not p.cue)]
    return min(shown, key=lambda p: p.delta) if shown else None


def table(game_ids: list[str], themes: list[str]) -> str:
    """The colour-blind check as a Markdown table: per game and theme and per vision, the worst pair without
    a cue of any group (its distance and the pair; where every pair has a cue, the worst of all, marked
    "cued"), and whether it passes."""
    head = ["game", "theme", *(VISION_NAMES[v] for v in VISIONS), "result"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for game_id in game_ids:
        for theme in themes:
            found = pairs(game_id, theme)
            cells = []
            for vision in VISIONS:
                p = worst(found, vision) or worst(found, vision, cued=True)
                mark = ", cued" if p and p.cue else ""
                cells.append(f"{p.delta:.1f} ({p.group}: {p.a} / {p.b}{mark})" if p else "-")
            ok = not any(p.fails for p in found)
            lines.append(f"| {game_id} | {theme} | " + " | ".join(cells) + f" | {'pass' if ok else 'FAIL'} |")
    return "\n".join(lines)


def text_pairs(game_id: str, theme: str) -> list[kit.TextPair]:
    """Every text ink a game's images draw on each colour it is drawn on: the kit's and the game's own."""
    t = kit.theme(theme)
    found = api.module(game_id)
    own = found.text_pairs(t) if found is not None and hasattr(found, "text_pairs") else []
    return [*kit.text_pairs(t), *own]
