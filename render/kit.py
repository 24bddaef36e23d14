"""The shared drawing kit: font, palette, card tiles, rows, zones, player panels, banners, a board's key,
the hand page and its zones, and PNG encoding.

Every game's renderer builds its images from these parts so that all games look like one product.
Everything that never changes (card faces, backs, badges) is drawn once, supersampled, and cached.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast

from PIL import Image, ImageDraw, ImageFont

from engine.table.present import CardEntry, Presentation, Prompt, Status, prompt_of, shorten, titled_names
from engine.table.present import seat_refs as seat_refs  # one seat-name rule for every text

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]  # left, top, right, bottom

FONT_DIR = Path(__file__).with_name("fonts")
PHONE = 390  # the width (CSS px) at which a phone shows the image
# Twice the phone's width: a phone shows the image 390 px wide whatever its size, so a wider canvas only
# costs pixels to draw and encode (about twice as many at 1080); at 2x every canvas pixel is one device
# pixel on a 2x screen. Sizes below are for this width (the layout was first drawn at 1080 and scaled).
WIDTH = 2 * PHONE
# The smallest text: 11 px when the image is shown PHONE px wide (22 px on the 780 canvas).
MIN_TEXT = -(-11 * WIDTH // PHONE)
MARGIN = 12
GAP = 8  # between stacked parts of an image
BANNER_H = 46  # the top banner
PANEL_HEAD = 44  # a player panel's name line
NAME_TEXT = 25  # player names in panels
BANNER_TEXT = 26  # the banner's status line
SUPERSAMPLE = 3  # cached tiles are drawn this many times larger, then reduced, for smooth edges


@dataclass(frozen=True, slots=True)
class Theme:
    """The colours of one theme; every image has an opaque background so it reads on any Discord theme."""

    name: str
    bg: RGB
    panel: RGB
    panel_active: RGB
    zone: RGB
    border: RGB
    text: RGB
    dim: RGB
    highlight: RGB
    good: RGB
    bad: RGB
    card_face: RGB
    card_edge: RGB
    card_dim: RGB
    back: RGB
    back_line: RGB
    red_ink: RGB
    black_ink: RGB
    highlight_ink: RGB | None = None  # the highlight as text (a darker one where the highlight is too light)
    bad_ink: RGB | None = None  # "bad" as text, likewise
    edge: int = 1  # the width of outlines (panels, zones, chips): thicker in high contrast
    label: str = ""  # the name people see ("High contrast"); the name capitalised when empty

    @property
    def highlight_text(self) -> RGB:
        """The highlight's colour for text (WCAG 4.5:1 on the theme's grounds)."""
        return self.highlight_ink or self.highlight

    @property
    def bad_text(self) -> RGB:
        """The "bad" colour for text (WCAG 4.5:1 on the theme's grounds)."""
        return self.bad_ink or self.bad

    @property
    def title(self) -> str:
        """The theme's name as people see it."""
        return self.label or self.name.capitalize()


THEMES: dict[str, Theme] = {
    "dark": Theme(
        name="dark",
        bg=(30, 32, 38),
        panel=(45, 49, 58),
        panel_active=(58, 64, 80),
        zone=(36, 39, 47),
        border=(82, 89, 104),
        text=(242, 243, 245),
        dim=(170, 176, 188),
        highlight=(255, 200, 40),
        good=(67, 181, 108),
        bad=(255, 108, 108),
        card_face=(250, 248, 240),
        card_edge=(20, 20, 24),
        card_dim=(110, 110, 118),
        back=(52, 86, 166),
        back_line=(104, 140, 214),
        red_ink=(200, 30, 40),
        black_ink=(24, 24, 28),
        bad_ink=(255, 150, 145),
    ),
    "light": Theme(
        name="light",
        bg=(222, 225, 231),
        panel=(255, 255, 255),
        panel_active=(255, 246, 214),
        zone=(234, 236, 241),
        border=(190, 196, 206),
        text=(28, 30, 34),
        dim=(92, 98, 110),
        highlight=(232, 150, 0),
        good=(36, 140, 72),
        bad=(210, 40, 45),
        card_face=(255, 253, 247),
        card_edge=(60, 62, 70),
        card_dim=(110, 110, 118),
        back=(52, 86, 166),
        back_line=(104, 140, 214),
        red_ink=(200, 30, 40),
        black_ink=(24, 24, 28),
        highlight_ink=(140, 80, 0),
        bad_ink=(178, 24, 30),
    ),
    # High contrast: black ground, white text, saturated accents far apart, thick light outlines.
    "contrast": Theme(
        name="contrast",
        bg=(0, 0, 0),
        panel=(0, 0, 0),
        panel_active=(44, 38, 0),
        zone=(16, 16, 18),
        border=(235, 235, 235),
        text=(255, 255, 255),
        dim=(222, 222, 222),
        highlight=(255, 221, 0),
        good=(0, 214, 120),
        bad=(255, 96, 96),
        card_face=(255, 255, 255),
        card_edge=(0, 0, 0),
        card_dim=(84, 84, 90),
        back=(0, 52, 160),
        back_line=(120, 170, 255),
        red_ink=(184, 0, 16),
        black_ink=(0, 0, 0),
        edge=2,
        label="High contrast",
    ),
}

# Seat colours (Okabe-Ito based), distinguishable with the common colour-vision deficiencies.
SEAT_COLOURS: tuple[RGB, ...] = (
    (230, 159, 0),
    (86, 180, 233),
    (0, 158, 115),
    (204, 121, 167),
    (213, 94, 0),
    (240, 228, 66),
    (0, 114, 178),
    (160, 160, 160),
)


@dataclass(frozen=True, slots=True)
class Palette:
    """Colours that tell things apart, by meaning, and the cues other than colour that also tell them apart:
    `cue` for every pair (e.g. the seat's name beside its colour), `pair_cues` for one pair (a, b, cue).
    The colour check (tests/render/test_colours.py) allows a pair closer than its distance only with a cue."""

    colours: Mapping[str, RGB]
    cue: str = ""
    pair_cues: tuple[tuple[str, str, str], ...] = ()

    def cue_of(self, a: str, b: str) -> str:
        """The non-colour cue that tells meanings a and b apart ("" for colour alone)."""
        found = [c for x, y, c in self.pair_cues if {x, y} == {a, b}]
        return found[0] if found else self.cue


TextPair = tuple[str, RGB, RGB]  # what the text is, its ink, the colour it is drawn on


UP_DOWN = "▲ beside a raised stat, ▼ beside a lowered one"  # the cue of a stat's green or red


def palettes(t: Theme) -> dict[str, Palette]:
    """The kit's colours that tell things apart (every game draws them), by group."""
    return {
        "seats": Palette(
            {f"seat {k + 1}": c for k, c in enumerate(SEAT_COLOURS)},
            cue="every seat colour edges a panel or banner that names the seat",
        ),
        "marks": Palette(
            {"last move": t.highlight, "hit or lost": t.bad},
            pair_cues=(("last move", "hit or lost", "a hit's outline is doubled"),),
        ),
        "outcome": Palette(
            {"last move": t.highlight, "succeeded": t.good, "failed": t.bad},
            cue="✓ or ✗ before the last action's text",
        ),
        "suits": Palette({"red suit": t.red_ink, "black suit": t.black_ink}, cue="the suit's symbol"),
    }


def text_pairs(t: Theme) -> list[TextPair]:
    """Every text ink the kit draws, on each colour it is drawn on (for the contrast check)."""
    grounds = {"background": t.bg, "panel": t.panel, "acting panel": t.panel_active, "zone": t.zone}
    pairs = [(f"{ink_name} on {g}", ink, ground) for g, ground in grounds.items()
             for ink_name, ink in (("text", t.text), ("dim", t.dim), ("highlighted text", t.highlight_text),
                                   ("bad news", t.bad_text))]  # fmt: skip
    pairs += [(f"{name} on the card", ink, t.card_face) for name, ink in
              (("black ink", t.black_ink), ("red ink", t.red_ink), ("card label", t.card_dim))]  # fmt: skip
    pairs += [(f"a chip's ink on {name}", contrast_ink(fill), fill) for name, fill in
              (("highlight", t.highlight), ("good", t.good), ("bad", t.bad))]  # fmt: skip
    pairs += [(f"a badge's ink on {name}", contrast_ink(fill), fill) for name, fill in
              (("a seat colour", c) for c in SEAT_COLOURS)]  # fmt: skip
    pairs.append(("a face-down card's count", (255, 255, 255), t.back))
    return pairs


def theme(name: str | None) -> Theme:
    """The theme by name ("dark", "light" or "contrast"); dark when None."""
    try:
        return THEMES[name or "dark"]
    except KeyError:
        raise ValueError(f"unknown theme {name!r}; known: {', '.join(THEMES)}") from None


def seat_colour(seat: int) -> RGB:
    """The colour of a seat."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def seat_names(n: int, names: Sequence[str] | None = None) -> list[str]:
    """Display names for n seats: the given names (without glyphs the font lacks), else P1..Pn."""
    given = [printable(x).strip() for x in names or []]
    return [given[i] if i < len(given) and given[i] else f"P{i + 1}" for i in range(n)]


def view_names(view: Mapping[str, Any], names: Sequence[str] | None = None) -> list[str]:
    """Display names for every seat of a view (see seat_names)."""
    return seat_names(int(view.get("num_players") or len(view.get("players") or [])), names)


ODD_VIEW = (AttributeError, IndexError, KeyError, TypeError, ValueError)  # what a malformed view raises


def status_of(present: Presentation, view: Mapping[str, Any], names: Sequence[str]) -> Status:
    """The game's own status (its presentation's words) of a view; for a view too malformed for them (a
    presentation trusts its game's views; an image draws whatever it gets), one that says nothing."""
    try:
        return present.status(cast(dict[str, Any], view), names)  # a game's typed view is its JSON
    except ODD_VIEW:
        return Status("")


def hand_prompt(present: Presentation, view: Mapping[str, Any], names: Sequence[str]) -> Prompt:
    """The game's own prompt for the view's viewer (its presentation's words), or "Your move" for a view too
    malformed for them."""
    try:
        return prompt_of(present, cast(dict[str, Any], view), names)
    except ODD_VIEW:
        return Prompt("Your move")


def who(seat: object, names: list[str]) -> str:
    """The display name of a seat number, or "?" for anything else."""
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def as_int(x: object) -> int:
    """A view's number, or 0 for anything else (a bool is not a number here)."""
    return x if isinstance(x, int) and not isinstance(x, bool) else 0


def as_seat(x: object) -> int | None:
    """A view's seat number, or None for anything else."""
    return x if isinstance(x, int) and not isinstance(x, bool) else None


def as_dict(x: object) -> dict[str, Any]:
    """A view's table, or an empty one for anything else."""
    return x if isinstance(x, dict) else {}


def as_list(x: object) -> list[Any]:
    """A view's list, or an empty one for anything else."""
    return x if isinstance(x, list) else []


def dicts(x: object) -> list[dict]:
    """The dicts of a view's list (anything else left out)."""
    return [d for d in x if isinstance(d, dict)] if isinstance(x, list) else []


def ids(x: object) -> list[str]:
    """A view's list of card ids as strings (anything else left out)."""
    return (
        [str(c) for c in x if isinstance(c, str | int) and not isinstance(c, bool)]
        if isinstance(x, list)
        else []
    )


def own_seat(view: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The viewer's own player entry of a view, or None for a spectator view."""
    viewer, players = view.get("viewer"), list(view.get("players") or [])
    if not isinstance(viewer, int) or not 0 <= viewer < len(players):
        return None
    return next((q for q in players if q.get("seat") == viewer), players[viewer])


def spectator_hand(title: str, t: Theme) -> Image.Image:
    """The image a hand request gets for a view with no seat of its own: a banner saying so."""
    return board_canvas(BANNER_H + 2 * MARGIN, title, "Spectators have no hand", (150, 150, 160), t)


V = TypeVar("V", bound=Mapping[str, Any])  # a game's view
V_in = TypeVar("V_in", bound=Mapping[str, Any], contravariant=True)
OwnHand = Callable[[V, Sequence[str] | None, Mapping[str, Any], int, Theme], Image.Image]


class HandImage(Protocol[V_in]):
    """A game's `hand(view, names, theme)`: one viewer's private image."""

    def __call__(
        self, view: V_in, names: Sequence[str] | None = None, theme: str | None = None
    ) -> Image.Image: ...


def own_hand(title: str, draw: OwnHand[V]) -> HandImage[V]:
    """A game's hand function: the spectator's banner for a view with no seat of its own, else what draw
    makes of (view, names, the viewer's own player entry, their seat, the theme); draw's docstring is its."""

    themed = theme  # `theme` is the hand's argument below

    def hand(view: V, names: Sequence[str] | None = None, theme: str | None = None) -> Image.Image:
        t = themed(theme)
        p = own_seat(view)
        if p is None:
            return spectator_hand(title, t)
        return draw(view, names, p, as_int(view["viewer"]), t)

    hand.__doc__ = draw.__doc__
    return hand


Section = tuple[int, Callable[[Image.Image, Box], None]]  # a height and what draws into that box


def hand_rows(
    label: str, kinds: Sequence[str], row: Callable[[str], Image.Image], row_h: Callable[[str], int], t: Theme
) -> Section:
    """A hand's zone of wide card rows, one a kind of card (drawn by row, row_h high), else "no cards in
    hand"."""
    rows_h = sum(row_h(c) + 6 for c in kinds)

    def draw(canvas: Image.Image, box: Box) -> None:
        d = ImageDraw.Draw(canvas)
        inner = zone(d, box, label, t, size=MIN_TEXT)
        y = inner[1]
        for cid in kinds:
            tile = row(cid)
            paste(canvas, tile, inner[0], y)
            y += tile.height + 6
        if not kinds:
            draw_text(d, (inner[0], inner[1] + 2), "no cards in hand", MIN_TEXT, t.dim)

    return zone_head(MIN_TEXT) + (rows_h if kinds else LINE_H + 4) + 2, draw


def text_zone(
    label: str, paragraphs: Sequence[Sequence[str]], t: Theme, gap: int = 0, pad: int = 4
) -> Section:
    """A labelled zone of paragraphs (lines of the smallest text), gap apart, pad below the last."""
    height = zone_head(MIN_TEXT) + sum(len(x) * LINE_H + gap for x in paragraphs) + pad

    def draw(canvas: Image.Image, box: Box) -> None:
        d = ImageDraw.Draw(canvas)
        inner = zone(d, box, label, t, size=MIN_TEXT)
        y = inner[1]
        for lines in paragraphs:
            for line in lines:
                draw_text(d, (inner[0], y), line, MIN_TEXT, t.text)
                y += LINE_H
            y += gap

    return height, draw


def hand_page(
    title: str,
    heading: str,
    seat: int,
    prompt: Prompt,
    sections: Sequence[Section],
    last_text: str,
    t: Theme,
    chips: Sequence[str] = (),
) -> Image.Image:
    """The private page every game shares: a banner in the seat's colour, the prompt (framed in gold when it
    is the viewer's move) with chips, the game's sections one under another, and the last action. The prompt
    is the game's own (its presentation's `prompt`): the page only fits it."""
    W, M = WIDTH, MARGIN
    prompt_text, urgent = prompt.text, prompt.yours
    last_h = last_height(last_text)
    H = M + BANNER_H + GAP + PROMPT_H + GAP + sum(h + GAP for h, _ in sections)
    H += (last_h + GAP if last_h else 0) + M - GAP
    canvas = new_canvas(W, H, t)
    d = ImageDraw.Draw(canvas)
    banner(canvas, (M, M, W - M, M + BANNER_H), title, heading, seat_colour(seat), t)
    y = M + BANNER_H + GAP
    d.rounded_rectangle((M, y, W - M, y + PROMPT_H), 8, fill=t.panel_active if urgent else t.panel,
                        outline=t.highlight if urgent else t.border,
                        width=3 if urgent else t.edge)  # fmt: skip
    room = W - 2 * M - 33
    f = font(MIN_TEXT, True)
    chips = list(chips)
    while chips and text_width(prompt_text, f) > room - sum(text_width(x, f) + MIN_TEXT + 6 for x in chips):
        chips.pop(0)  # the prompt matters more than a chip
    right = W - M - 9
    for text in reversed(chips):
        right = chip(d, (right, y + PROMPT_H // 2), text, t, anchor_right=True)[0] - 6
    small = font(MIN_TEXT, True)  # a prompt too long even at the smallest size keeps its verb: names shorten
    names = titled_names(prompt_text)
    prompt_text = shorten(prompt_text, right - M - 24, names, lambda x: text_width(x, small))
    size = fitting_font(prompt_text, right - M - 24, NAME_TEXT, True, min_size=MIN_TEXT).size
    draw_text(d, (M + 12, y + PROMPT_H // 2), prompt_text, size, t.text, True, max_w=right - M - 24,
              anchor="lm")  # fmt: skip
    y += PROMPT_H + GAP
    for h, draw in sections:
        draw(canvas, (M, y, W - M, y + h))
        y += h + GAP
    if last_h:
        last_action_bar(canvas, (M, y, W - M, y + last_h), last_text, None, t)
    return canvas


PROMPT_H = 46


@cache
def has_glyph(ch: str) -> bool:
    """Whether the shipped font draws this character (rather than its empty-box fallback)."""
    if ch.isspace():
        return True
    f = font(20, True)
    return f.getmask(ch).getbbox() is not None and bytes(f.getmask(ch)) != bytes(f.getmask("\uffff"))


def printable(text: str) -> str:
    """The text without characters the font cannot draw (emoji in Discord names, for example)."""
    return "".join(ch for ch in text if has_glyph(ch))


# ---------------------------------------------------------------- text


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped DejaVu Sans at this pixel size."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


@lru_cache(maxsize=4096)
def text_width(text: str, f: ImageFont.FreeTypeFont) -> int:
    """The advance width of text in pixels."""
    return int(f.getlength(text))


@lru_cache(maxsize=4096)
def fit_text(text: str, f: ImageFont.FreeTypeFont, max_w: int) -> str:
    """The text, cut with an ellipsis if it is wider than max_w."""
    if f.getlength(text) <= max_w:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if f.getlength(text[:mid].rstrip() + "…") <= max_w:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


def wrap_text(text: str, f: ImageFont.FreeTypeFont, max_w: int, max_lines: int = 99) -> list[str]:
    """Greedy word wrap to max_w; the last kept line ends in an ellipsis if text was left out."""
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            trial = f"{line} {word}" if line else word
            if f.getlength(trial) <= max_w:
                line = trial
                continue
            if line:
                lines.append(line)
            line = word if f.getlength(word) <= max_w else fit_text(word, f, max_w)
        lines.append(line)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = fit_text(lines[-1] + " …", f, max_w)
    return lines


def fitting_font(text: str, max_w: int, size: int, bold: bool = False, min_size: int = 10):
    """The largest font up to size in which text fits max_w (never below min_size)."""
    while size > min_size and font(size, bold).getlength(text) > max_w:
        size -= 1
    return font(size, bold)


@lru_cache(maxsize=4096)
def text_mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """A line of text rendered once as a coverage mask, with its offset from the anchor point."""
    f = font(size, bold)
    x0, y0, x1, y1 = f.getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, int(x1 - x0)), max(1, int(y1 - y0))), 0)  # whole pixels
    ImageDraw.Draw(mask).text((-x0, -y0), text, font=f, fill=255, anchor=anchor)
    return mask, int(x0), int(y0)


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    text: str,
    size: int,
    fill: RGB,
    bold: bool = False,
    max_w: int | None = None,
    anchor: str = "la",
) -> int:
    """Draw one line (cut to max_w) from the cached text masks and return its width."""
    f = font(size, bold)
    if max_w is not None:
        text = fit_text(text, f, max_w)
    if text:
        mask, dx, dy = text_mask(text, size, bold, anchor)
        draw.bitmap((int(xy[0]) + dx, int(xy[1]) + dy), mask, fill=fill)
    return text_width(text, f)


DARK_INK: RGB = (0, 0, 0)  # black and white: one of them reads at 4.58:1 or more on any colour
LIGHT_INK: RGB = (255, 255, 255)


def luminance(colour: RGB) -> float:
    """The relative luminance of an sRGB colour (WCAG 2)."""
    lin = [c / 255 / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in colour]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


@cache
def contrast_ink(colour: RGB) -> RGB:
    """Near-black or near-white, whichever has the higher WCAG contrast on this colour (at least 4.5:1)."""
    y = luminance(colour)
    dark, light = (y + 0.05) / (luminance(DARK_INK) + 0.05), (luminance(LIGHT_INK) + 0.05) / (y + 0.05)
    return DARK_INK if dark >= light else LIGHT_INK


# ---------------------------------------------------------------- card tiles


def _rounded_mask(w: int, h: int, radius: int) -> Image.Image:
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), radius, fill=255)
    return mask


def _reduce(big: Image.Image, w: int, h: int) -> Image.Image:
    """Box-filter a supersampled drawing down to (w, h): fast, and smooth enough at 3x."""
    if big.size == (w * SUPERSAMPLE, h * SUPERSAMPLE):
        return big.reduce(SUPERSAMPLE)
    return big.resize((w, h), Image.Resampling.BOX)


Disc = tuple[str, RGB]  # a number in a coloured circle on a card: (text, fill)


@lru_cache(maxsize=2048)
def card_face(
    entry: CardEntry,
    w: int,
    h: int,
    theme_name: str = "dark",
    band: RGB | None = None,
    columns: tuple[str, ...] = (),
    headline: str = "",
    sub: str = "",
    discs: tuple[Disc | None, Disc | None] = (None, None),
    foot: str = "",
) -> Image.Image:
    """A face-up card drawn from a catalogue entry (RGBA, rounded corners, cached by all its arguments).

    A playing card (an entry with a short label and colour "red" or "black", e.g. "K♣") gets a pip face:
    rank and suit in the corner, its power in the middle when the rank does not say it (A, J, Q, K).
    Any other card gets a named face: its name on a band of `band`, then the stats named in `columns`
    (or a `headline` such as "+2" with `sub` under it), then `discs` (left, right) such as a price and
    a mana cost at the bottom with `foot` (e.g. the tier) between them.
    """
    t = theme(theme_name)
    s = SUPERSAMPLE
    W, H = w * s, h * s
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    radius = max(4, w // 10) * s
    d.rounded_rectangle((0, 0, W - 1, H - 1), radius, fill=t.card_face, outline=t.card_edge, width=2 * s)
    pad = max(3, w // 14) * s
    if entry.short and entry.colour in ("red", "black"):
        _pip_face(d, entry, W, H, pad, t)
    else:
        _named_face(d, entry, W, H, t, band, columns, headline, sub, discs, foot)
    return _reduce(img, w, h)


def _pip_face(d: ImageDraw.ImageDraw, entry: CardEntry, W: int, H: int, pad: int, t: Theme) -> None:
    ink = t.red_ink if entry.colour == "red" else t.black_ink
    corner, symbol = entry.short[:-1], entry.short[-1]
    low = MIN_TEXT * SUPERSAMPLE  # the rank in the corner is text: never below MIN_TEXT
    corner_f = fitting_font(corner, max(int(W * 0.62), W - 2 * pad), max(low, int(W * 0.36)), True, low)
    d.text((pad, pad * 0.6), corner, font=corner_f, fill=ink, anchor="lt")
    bbox = d.textbbox((pad, pad * 0.6), corner, font=corner_f, anchor="lt")
    d.text(((bbox[0] + bbox[2]) // 2, bbox[3] + pad * 0.5), symbol, font=font(int(W * 0.26)), fill=ink,
           anchor="mt")  # fmt: skip
    power = str(dict(entry.stats).get("Power", corner))
    size = int(W * 0.42)
    if power != corner and size >= low:  # A, J, Q, K: the power, readable, or nothing
        d.text((W * 0.58, H * 0.68), power, font=font(size, True), fill=ink, anchor="mm")
    else:
        d.text((W * 0.60, H * 0.66), symbol, font=font(int(min(W * 0.62, H * 0.42))), fill=ink, anchor="mm")


def _hyphenate(word: str, f: ImageFont.FreeTypeFont, max_w: int) -> list[str]:
    """A word too wide for max_w, split into pieces ending in a hyphen (the last piece without)."""
    pieces = []
    while f.getlength(word) > max_w and len(word) > 1:
        k = max([k for k in range(1, len(word)) if f.getlength(word[:k] + "-") <= max_w] or [1])
        pieces.append(word[:k] + "-")
        word = word[k:]
    return [*pieces, word]


def name_lines(
    text: str, max_w: int, size: int, max_lines: int = 2
) -> tuple[ImageFont.FreeTypeFont, list[str]]:
    """A name set at this size in at most max_lines lines of max_w: bold if it fits whole, else regular,
    else with long words hyphenated, and cut with an ellipsis only when none of these fits."""
    words = text.split()
    tries = []
    for hyphenate in (False, True):
        for bold in (True, False):
            f = font(size, bold)
            lines, line = [], ""
            for word in words:
                pieces = _hyphenate(word, f, max_w) if hyphenate else [word]
                for k, piece in enumerate(pieces):
                    joiner = " " if line and k == 0 else ""
                    trial = line + joiner + piece if k == 0 or not line else line + piece
                    if line and f.getlength(trial) > max_w:
                        lines.append(line)
                        line = piece
                    else:
                        line = trial
            lines.append(line)
            whole = len(lines) <= max_lines and all(f.getlength(x) <= max_w for x in lines)
            if whole:
                return f, lines
            tries.append(f)
    f = tries[0]
    return f, wrap_text(text, f, max_w, max_lines)


def _fits(text: str, max_w: float, size: int) -> ImageFont.FreeTypeFont | None:
    """The bold font at size if text fits max_w in it, else the regular one, else None (leave it out)."""
    for bold in (True, False):
        if font(size, bold).getlength(text) <= max_w:
            return font(size, bold)
    return None


def _named_face(
    d: ImageDraw.ImageDraw,
    entry: CardEntry,
    W: int,
    H: int,
    t: Theme,
    band: RGB | None,
    columns: tuple[str, ...],
    headline: str,
    sub: str,
    discs: tuple[Disc | None, Disc | None],
    foot: str,
) -> None:
    """Every text on a named face is at least MIN_TEXT: what does not fit at that size is left out (the
    name is wrapped, set regular, hyphenated and only then cut)."""
    s = SUPERSAMPLE
    pad = 4 * s
    low = MIN_TEXT * s
    colour = band or t.card_dim
    f, lines = name_lines(entry.name, W - 2 * pad, low)
    line_h = int(low * 1.08)
    band_h = max(int(H * 0.22), line_h * len(lines) + 2 * pad)
    d.rounded_rectangle((pad // 2, pad // 2, W - pad // 2, band_h), 4 * s, fill=colour)
    top = (band_h + pad // 2 - line_h * len(lines)) // 2 + pad // 4
    for i, line in enumerate(lines):
        d.text((W // 2, top + i * line_h), line, font=f, fill=contrast_ink(colour), anchor="mt")
    r = max(int(H * 0.11), (low * 4) // 5)  # a disc's number is at least MIN_TEXT
    cy = H - pad - r
    body_top, body_bottom = band_h + pad, cy - r - pad
    stats = dict(entry.stats)
    labels = [name[:3].upper() if len(name) > 4 else name.upper() for name in columns]
    row_h = int(low * 1.25)
    if columns and all(_fits(x, W // len(columns) - pad, low) for x in labels):
        n = len(columns)  # labels over big numbers, side by side
        big = font(max(low, min(int(H * 0.2), (body_bottom - body_top) - row_h)), True)
        for k, (name, text) in enumerate(zip(columns, labels, strict=True)):
            cx = W * (2 * k + 1) // (2 * n)
            d.text((cx, body_top), text, font=_fits(text, W // n - pad, low), fill=t.card_dim, anchor="mt")
            d.text((cx, body_bottom), str(stats.get(name, "")), font=big, fill=t.black_ink, anchor="mb")
    elif columns:  # too narrow for that: one row per stat, label left and number right
        shown = list(zip(columns, labels, strict=True))[: max(1, (body_bottom - body_top) // row_h)]
        y = (body_top + body_bottom - row_h * len(shown)) // 2 + row_h // 2
        value_f = font(low + 2 * s, True)
        for name, text in shown:
            label_f = _fits(text, W - 4 * pad - value_f.getlength("00"), low)
            if label_f is not None:
                d.text((2 * pad, y), text, font=label_f, fill=t.card_dim, anchor="lm")
            d.text((W - 2 * pad, y), str(stats.get(name, "")), font=value_f, fill=t.black_ink, anchor="rm")
            y += row_h
    elif headline:
        subs = [(x, _fits(x, W - 2 * pad, low)) for x in sub.split("\n") if x]
        subs = [(x, sf) for x, sf in subs if sf is not None]
        room = body_bottom - body_top
        while subs and room - row_h * len(subs) < low + 2 * s:
            subs.pop()
        big = font(max(low, min(int(H * 0.22), room - row_h * len(subs))), True)
        head_h = int(big.size)
        y = body_top + (room - head_h - row_h * len(subs)) // 2
        d.text((W // 2, y + head_h // 2), headline, font=big, fill=t.black_ink, anchor="mm")
        y += head_h
        for x, sf in subs:
            d.text((W // 2, y + row_h // 2), x, font=sf, fill=t.black_ink, anchor="mm")
            y += row_h
    disc_f = font(int(r * 1.3), True)
    for k, disc in enumerate(discs):
        if disc is None:
            continue
        text, fill = disc
        cx = pad + r if k == 0 else W - pad - r
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=t.card_edge, width=s)
        d.text((cx, cy), text, font=disc_f, fill=contrast_ink(fill), anchor="mm")
    foot_f = _fits(foot, W - 4 * r - 4 * pad, low) if foot else None
    if foot_f is not None:
        d.text((W // 2, cy), foot, font=foot_f, fill=t.card_dim, anchor="mm")


@lru_cache(maxsize=256)
def card_back(w: int, h: int, theme_name: str = "dark", label: str = "") -> Image.Image:
    """A face-down card (RGBA): a lattice on the back colour, with an optional label (e.g. a count)."""
    t = theme(theme_name)
    s = SUPERSAMPLE
    W, H = w * s, h * s
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    radius = max(4, w // 10) * s
    d.rounded_rectangle((0, 0, W - 1, H - 1), radius, fill=t.back, outline=(240, 240, 245), width=2 * s)
    inset = max(4, w // 10) * s
    inner = Image.new("RGBA", (W - 2 * inset, H - 2 * inset), t.back)
    di = ImageDraw.Draw(inner)
    step = max(8, w // 5) * s
    for k in range(-H, W + H, step):
        di.line((k, 0, k + H, H), fill=t.back_line, width=s)
        di.line((k, H, k + H, 0), fill=t.back_line, width=s)
    img.paste(inner, (inset, inset), _rounded_mask(inner.width, inner.height, radius // 2))
    if label:
        f = fitting_font(label, int(W * 0.8), int(W * 0.34), bold=True)
        bb = d.textbbox((W // 2, H // 2), label, font=f, anchor="mm")
        d.rounded_rectangle((bb[0] - 4 * s, bb[1] - 4 * s, bb[2] + 4 * s, bb[3] + 4 * s), 4 * s, fill=t.back)
        d.text((W // 2, H // 2), label, font=f, fill=(255, 255, 255), anchor="mm")
    return _reduce(img, w, h)


@lru_cache(maxsize=512)
def badge(text: str, fill: RGB, height: int) -> Image.Image:
    """A counter badge (RGBA pill), e.g. damage or a card's total power."""
    s = SUPERSAMPLE
    f = font(int(height * 0.68) * s, True)
    w = max(height, int(f.getlength(text) / s) + height // 2)
    img = Image.new("RGBA", (w * s, height * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(
        (0, 0, w * s - 1, height * s - 1), height * s // 2, fill=fill, outline=(255, 255, 255), width=s * 2
    )
    d.text((w * s // 2, height * s // 2), text, font=f, fill=contrast_ink(fill), anchor="mm")
    return _reduce(img, w, height)


@lru_cache(maxsize=512)
def modifier_tab(text: str, ink: RGB, w: int, h: int, theme_name: str = "dark") -> Image.Image:
    """A modifier attached under a card (RGBA), e.g. "5♥": a strip of card stock with the modifier."""
    t = theme(theme_name)
    s = SUPERSAMPLE
    img = Image.new("RGBA", (w * s, h * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), h * s // 3, fill=t.card_face, outline=ink, width=2 * s)
    for size in sorted({max(MIN_TEXT, int(h * 0.72)), MIN_TEXT}, reverse=True):
        f = _fits(text, (w - 2) * s, size * s)
        if f is not None:  # else the tab says nothing rather than something unreadable
            d.text((w * s // 2, h * s // 2), text, font=f, fill=ink, anchor="mm")
            break
    return _reduce(img, w, h)


def outline_tile(
    w: int, h: int, text: str, theme_name: str = "dark", radius: int = 7, dashed: bool = False
) -> Image.Image:
    """An outline with a word in the middle, where a zone or a slot is empty (RGBA; the game caches it)."""
    t = theme(theme_name)
    s = SUPERSAMPLE
    W, H = w * s, h * s
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, W - 1, H - 1), radius * s, outline=t.border, width=2 * s)
    if dashed:
        dash = 10 * s
        for x in range(dash, W - dash, 2 * dash):  # gaps in the outline
            d.line((x, 0, x + dash // 2, 0), fill=(0, 0, 0, 0), width=2 * s)
            d.line((x, H - 1, x + dash // 2, H - 1), fill=(0, 0, 0, 0), width=2 * s)
    d.text((W // 2, H // 2), text, font=font(MIN_TEXT * s), fill=t.dim, anchor="mm")
    return img.reduce(s)


def name_line(d: ImageDraw.ImageDraw, x: int, cy: int, name: str, room: int, ink: RGB) -> int:
    """A name on one line of a supersampled tile at MIN_TEXT: bold, else regular, else cut; its width."""
    s = SUPERSAMPLE
    for bold in (True, False):
        f = font(MIN_TEXT * s, bold)
        if f.getlength(name) <= room:
            d.text((x, cy), name, font=f, fill=ink, anchor="lm")
            return int(f.getlength(name))
    f = font(MIN_TEXT * s)
    cut = fit_text(name, f, room)
    d.text((x, cy), cut, font=f, fill=ink, anchor="lm")
    return int(f.getlength(cut))


def paste(canvas: Image.Image, tile: Image.Image, x: int, y: int) -> Box:
    """Paste an RGBA tile at (x, y) using its alpha; returns its box."""
    canvas.paste(tile, (x, y), tile)
    return (x, y, x + tile.width, y + tile.height)


# ---------------------------------------------------------------- rows, zones, panels, banners


def row_step(count: int, item_w: int, max_w: int, gap: int) -> int:
    """The distance between the left edges of items in a row: item_w + gap, or less (overlap) to fit."""
    if count <= 1:
        return item_w + gap
    return min(item_w + gap, max(6, (max_w - item_w) // (count - 1)))


def highlight(
    draw: ImageDraw.ImageDraw, box: Box, colour: RGB, width: int = 3, pad: int = 3, double: bool = False
) -> None:
    """An outline around a box to point at the last action; double (two thin lines) for a hit or a loss,
    so that it differs from the plain outline by its pattern as well as its colour."""
    x0, y0, x1, y1 = box
    if not double:
        draw.rounded_rectangle((x0 - pad, y0 - pad, x1 + pad, y1 + pad), pad + 5, outline=colour, width=width)
        return
    thin = max(1, width // 2)
    draw.rounded_rectangle((x0 - pad, y0 - pad, x1 + pad, y1 + pad), pad + 5, outline=colour, width=thin)
    inner = pad - 2 * thin
    inner_box = (x0 - inner, y0 - inner, x1 + inner, y1 + inner)
    draw.rounded_rectangle(inner_box, max(2, inner + 5), outline=colour, width=thin)


def zone(draw: ImageDraw.ImageDraw, box: Box, label: str, t: Theme, size: int = MIN_TEXT) -> Box:
    """A labelled zone; returns the inner box below the label (zone_head(size) lower)."""
    draw.rounded_rectangle(box, 6, fill=t.zone, outline=t.border if t.edge > 1 else None, width=t.edge)
    x0, y0, x1, y1 = box
    if label:
        draw_text(draw, (x0 + 6, y0 + 4), label, size, t.dim, bold=True, max_w=x1 - x0 - 12)
        return (x0 + 6, y0 + zone_head(size), x1 - 6, y1 - 4)
    return (x0 + 6, y0 + 4, x1 - 6, y1 - 4)


def zone_head(size: int = MIN_TEXT) -> int:
    """How far below a zone's top its content starts, with a label of this size."""
    return size + 9


def chip(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    text: str,
    t: Theme,
    size: int = MIN_TEXT,
    fill: RGB | None = None,
    ink: RGB | None = None,
    anchor_right: bool = False,
) -> Box:
    """A small rounded label (e.g. "3 cards"); anchored at its left (or right) edge and vertical centre."""
    f = font(size, True)
    w = text_width(text, f) + size
    h = int(size * 1.5)
    x, y = xy
    if anchor_right:
        x -= w
    box = (x, y - h // 2, x + w, y + h // 2)
    draw.rounded_rectangle(box, h // 2, fill=fill or t.zone, outline=t.border, width=t.edge)
    draw_text(draw, (x + w // 2, y), text, size, ink or t.text, bold=True, anchor="mm")
    return box


def player_panel(
    canvas: Image.Image,
    box: Box,
    name: str,
    seat: int,
    t: Theme,
    chips: Sequence[str] = (),
    active: bool = False,
    tag: str = "",
    tag_colour: RGB | None = None,
) -> Box:
    """A player's panel: seat colour strip, name, stat chips on the right, a tag; returns the content box.

    The player to act (active) gets the gold frame and an arrow before the name.
    """
    d = ImageDraw.Draw(canvas)
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, 9, fill=t.panel_active if active else t.panel, outline=t.border, width=t.edge)
    colour = seat_colour(seat)
    d.rounded_rectangle((x0, y0, x0 + 9, y1), 4, fill=colour)
    head_h = PANEL_HEAD
    cy = y0 + head_h // 2 + 1
    right = x1 - 7
    for text in reversed(chips):
        right = chip(d, (right, cy), text, t, anchor_right=True)[0] - 5
    x = x0 + 17
    if active:
        d.polygon([(x, cy - 8), (x + 10, cy), (x, cy + 8)], fill=t.highlight)
        x += 16
    if tag:
        tag_box_w = text_width(tag, font(MIN_TEXT, True)) + MIN_TEXT
        room = right - x - tag_box_w - 9
    else:
        room = right - x - 6
    name_size = fitting_font(name, room, NAME_TEXT, True, min_size=MIN_TEXT).size
    x += draw_text(d, (x, cy), name, name_size, t.text, bold=True, max_w=room, anchor="lm") + 9
    if tag:
        colour = tag_colour or t.good
        chip(d, (x, cy), tag, t, fill=colour, ink=contrast_ink(colour))
    if active:
        highlight(d, box, t.highlight, width=4, pad=0)
    return (x0 + 16, y0 + head_h + 3, x1 - 7, y1 - 6)


def banner(canvas: Image.Image, box: Box, title: str, text: str, colour: RGB, t: Theme) -> None:
    """The top banner: game title and whose turn it is, on the acting seat's colour."""
    d = ImageDraw.Draw(canvas)
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, 9, fill=t.panel, outline=t.border, width=t.edge)
    d.rounded_rectangle((x0, y0, x0 + 9, y1), 4, fill=colour)
    cy = (y0 + y1) // 2
    w = draw_text(d, (x0 + 19, cy), title.upper(), MIN_TEXT, t.dim, bold=True, anchor="lm")
    size = fitting_font(text, x1 - x0 - w - 43, BANNER_TEXT, True, min_size=MIN_TEXT).size
    draw_text(d, (x0 + 19 + w + 12, cy), text, size, t.text, bold=True, max_w=x1 - x0 - w - 43, anchor="lm")


def board_canvas(h: int, title: str, text: str, colour: RGB, t: Theme) -> Image.Image:
    """A new image, the full width and h high, with the banner on top (see banner)."""
    canvas = new_canvas(WIDTH, h, t)
    banner(canvas, (MARGIN, MARGIN, WIDTH - MARGIN, MARGIN + BANNER_H), title, text, colour, t)
    return canvas


KeyItem = tuple[str, str, RGB | None]  # a glyph, its word, and the glyph's ink (None: the text's)


def key(
    canvas: Image.Image,
    box: Box,
    lines: Sequence[Sequence[KeyItem]],
    t: Theme,
    ink_on_zone: Callable[[RGB, Theme], RGB] | None = None,
) -> None:
    """A board's key to its glyphs, a line each, spread across the width; ink_on_zone adapts a glyph's ink."""
    d = ImageDraw.Draw(canvas)
    d.rounded_rectangle(box, 6, fill=t.zone)
    f = font(MIN_TEXT)
    room = box[2] - box[0] - 16
    for i, items in enumerate(lines):
        widths = [text_width(f"{glyph} {word}", f) for glyph, word, _ in items]
        gap = max(8, (room - sum(widths)) // max(1, len(items) - 1))
        x, cy = box[0] + 8, box[1] + 4 + i * LINE_H + LINE_H // 2
        for (glyph, word, ink), w in zip(items, widths, strict=True):
            colour = (ink_on_zone(ink, t) if ink_on_zone else ink) if ink else t.text
            gw = draw_text(d, (x, cy), glyph + " ", MIN_TEXT, colour, True, anchor="lm")
            draw_text(d, (x + gw, cy), word, MIN_TEXT, t.dim, anchor="lm")
            x += w + gap


def last_action_bar(canvas: Image.Image, box: Box, text: str, success: bool | None, t: Theme) -> None:
    """A strip with the last action's text, edged in highlight colour (green/red for success/failure)."""
    d = ImageDraw.Draw(canvas)
    edge = t.highlight if success is None else (t.good if success else t.bad)
    d.rounded_rectangle(box, 8, fill=t.panel, outline=edge, width=2)
    x0, y0, _, _ = box
    draw_text(d, (x0 + 10, y0 + 7), "LAST", MIN_TEXT, t.text, bold=True)
    sign = "" if success is None else "✓ " if success else "✗ "  # the outcome in a sign as well as the edge
    for i, line in enumerate(last_lines(sign + text, box[2] - box[0])):
        draw_text(d, (x0 + LAST_INDENT, y0 + 6 + i * LINE_H), line, MIN_TEXT, t.text)


LAST_INDENT = 80  # where the last action's text starts, after "LAST"
LINE_H = int(MIN_TEXT * 1.3)  # the line height of MIN_TEXT text


def last_lines(text: str, width: int, max_lines: int = 2) -> list[str]:
    """The last-action text wrapped for a bar this wide."""
    return wrap_text(text, font(MIN_TEXT), width - LAST_INDENT - 12, max_lines=max_lines)


def last_height(text: str, width: int = 0) -> int:
    """The height of a last-action bar for this text (0 for no text)."""
    return 12 + LINE_H * len(last_lines(text, width or WIDTH - 2 * MARGIN)) if text else 0


def log_height(count: int) -> int:
    """The height of a log zone of this many lines (0 for none)."""
    return zone_head() + LINE_H * count + 7 if count else 0


def log_lines(canvas: Image.Image, box: Box, lines: Sequence[str], t: Theme, size: int = MIN_TEXT) -> None:
    """The last few log lines, newest last, in a labelled zone (never smaller than MIN_TEXT)."""
    d = ImageDraw.Draw(canvas)
    size = max(size, MIN_TEXT)
    inner = zone(d, box, "LOG", t)
    line_h = int(size * 1.3)
    room = max(0, (inner[3] - inner[1]) // line_h)
    shown = list(lines)[-room:] if room else []
    for i, line in enumerate(shown):
        colour = t.text if i == len(shown) - 1 else t.dim
        draw_text(d, (inner[0], inner[1] + i * line_h), line, size, colour, max_w=inner[2] - inner[0])


# ---------------------------------------------------------------- canvas and encoding


def new_canvas(w: int, h: int, t: Theme) -> Image.Image:
    """An opaque RGB canvas in the theme's background colour."""
    return Image.new("RGB", (w, h), t.bg)


def to_png(img: Image.Image, colours: int = 64, compress_level: int = 3) -> bytes:
    """Encode as a palette PNG, fast: the palette comes from a quarter-size copy (fast octree), then the
    full image is mapped onto it without dithering; measured in bench/render.py."""
    sample = img.reduce(4) if img.width >= 64 and img.height >= 64 else img
    palette = sample.quantize(colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    img.quantize(palette=palette, dither=Image.Dither.NONE).save(
        out, format="PNG", compress_level=compress_level
    )
    return out.getvalue()
