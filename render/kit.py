"""The shared drawing kit: font, palette, card tiles, rows, zones, player panels, banners and PNG encoding.

Every game's renderer builds its images from these parts so that all games look like one product.
Everything that never changes (card faces, backs, badges) is drawn once, supersampled, and cached.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]  # left, top, right, bottom

FONT_DIR = Path(__file__).with_name("fonts")
WIDTH = 1080  # a phone's width in pixels: no image needs more
MARGIN = 16
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
        bad=(237, 66, 69),
        card_face=(250, 248, 240),
        card_edge=(20, 20, 24),
        card_dim=(110, 110, 118),
        back=(52, 86, 166),
        back_line=(104, 140, 214),
        red_ink=(200, 30, 40),
        black_ink=(24, 24, 28),
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


def theme(name: str | None) -> Theme:
    """The theme by name ("dark" or "light"); dark when None."""
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


def view_names(view: dict, names: Sequence[str] | None = None) -> list[str]:
    """Display names for every seat of a view (see seat_names)."""
    return seat_names(int(view.get("num_players") or len(view.get("players") or [])), names)


def who(seat: object, names: list[str]) -> str:
    """The display name of a seat number, or "?" for anything else."""
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def own_seat(view: dict) -> dict | None:
    """The viewer's own player entry of a view, or None for a spectator view."""
    viewer, players = view.get("viewer"), list(view.get("players") or [])
    if not isinstance(viewer, int) or not 0 <= viewer < len(players):
        return None
    return next((q for q in players if q.get("seat") == viewer), players[viewer])


def spectator_hand(title: str, t: Theme) -> Image.Image:
    """The image a hand request gets for a view with no seat of its own: a banner saying so."""
    canvas = new_canvas(WIDTH, 64 + 2 * MARGIN, t)
    banner(
        canvas,
        (MARGIN, MARGIN, WIDTH - MARGIN, MARGIN + 64),
        title,
        "Spectators have no hand",
        (150, 150, 160),
        t,
    )
    return canvas


@cache
def has_glyph(ch: str) -> bool:
    """Whether the shipped font draws this character (rather than its empty-box fallback)."""
    if ch.isspace():
        return True
    f = font(20, True)
    return f.getmask(ch).getbbox() is not None and bytes(f.getmask(ch)) != bytes(f.getmask("\uffff"))


SEAT_REF = re.compile(r"\bP(\d+)\b")


def seat_refs(text: str, names: Sequence[str]) -> str:
    """An engine text with its seat references ("P2") replaced by display names."""

    def sub(m: re.Match[str]) -> str:
        i = int(m.group(1)) - 1
        return names[i] if 0 <= i < len(names) else m.group(0)

    return SEAT_REF.sub(sub, text)


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
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
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


def contrast_ink(colour: RGB) -> RGB:
    """Black or white, whichever reads on this colour."""
    r, g, b = colour
    return (20, 20, 24) if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (250, 250, 250)


# ---------------------------------------------------------------- card tiles


@dataclass(frozen=True, slots=True)
class CardFace:
    """What the face of a card shows; a playing card uses corner/symbol, a named card name/cost/text/stats."""

    corner: str = ""  # big text in the top-left corner, e.g. "K"
    symbol: str = ""  # suit or faction symbol, e.g. "♣"
    ink: RGB = (24, 24, 28)  # colour of corner and symbol
    name: str = ""  # a named card's title, drawn on a band of the faction colour
    band: RGB | None = None  # faction colour
    cost: str = ""  # drawn in a disc at the top right
    text: str = ""  # ability text, wrapped to fit
    stats: str = ""  # bottom-right, e.g. "13" or "3/4"


def _rounded_mask(w: int, h: int, radius: int) -> Image.Image:
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), radius, fill=255)
    return mask


def _reduce(big: Image.Image, w: int, h: int) -> Image.Image:
    """Box-filter a supersampled drawing down to (w, h): fast, and smooth enough at 3x."""
    if big.size == (w * SUPERSAMPLE, h * SUPERSAMPLE):
        return big.reduce(SUPERSAMPLE)
    return big.resize((w, h), Image.Resampling.BOX)


@lru_cache(maxsize=1024)
def card_tile(face: CardFace, w: int, h: int, theme_name: str = "dark") -> Image.Image:
    """A face-up card tile (RGBA, rounded corners), cached by face, size and theme."""
    t = theme(theme_name)
    s = SUPERSAMPLE
    W, H = w * s, h * s
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    radius = max(4, w // 10) * s
    d.rounded_rectangle((0, 0, W - 1, H - 1), radius, fill=t.card_face, outline=t.card_edge, width=2 * s)
    pad = max(3, w // 14) * s
    if face.name:
        _named_face(d, face, W, H, pad, t)
    else:
        _pip_face(d, face, W, H, pad, t)
    return _reduce(img, w, h)


def _pip_face(d: ImageDraw.ImageDraw, face: CardFace, W: int, H: int, pad: int, t: Theme) -> None:
    corner_f = fitting_font(face.corner, int(W * 0.62), int(W * 0.36), bold=True)
    d.text((pad, pad * 0.6), face.corner, font=corner_f, fill=face.ink, anchor="lt")
    if face.symbol:
        bbox = d.textbbox((pad, pad * 0.6), face.corner, font=corner_f, anchor="lt")
        sym_f = font(int(W * 0.26))
        d.text(
            ((bbox[0] + bbox[2]) // 2, bbox[3] + pad * 0.5),
            face.symbol,
            font=sym_f,
            fill=face.ink,
            anchor="mt",
        )
        big = font(int(min(W * 0.62, H * 0.42)))
        d.text((W * 0.60, H * 0.66), face.symbol, font=big, fill=face.ink, anchor="mm")
    if face.stats:
        d.text(
            (W - pad, H - pad * 0.7), face.stats, font=font(int(W * 0.17), True), fill=t.card_dim, anchor="rd"
        )


def _named_face(d: ImageDraw.ImageDraw, face: CardFace, W: int, H: int, pad: int, t: Theme) -> None:
    band = face.band or t.card_dim
    band_h = int(H * 0.2)
    d.rounded_rectangle((pad // 2, pad // 2, W - pad // 2, band_h), pad, fill=band)
    cost_d = int(band_h * 0.8) if face.cost else 0
    name_f = fitting_font(face.name, W - 2 * pad - cost_d, int(band_h * 0.5), bold=True, min_size=8)
    d.text((pad, (band_h + pad // 2) // 2), face.name, font=name_f, fill=contrast_ink(band), anchor="lm")
    if face.cost:
        cx, cy, r = W - pad - cost_d // 2, (band_h + pad // 2) // 2, cost_d // 2
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=t.card_edge)
        d.text((cx, cy), face.cost, font=font(int(r * 1.2), True), fill=t.card_face, anchor="mm")
    if face.symbol:
        d.text((pad, band_h + pad), face.symbol, font=font(int(W * 0.2)), fill=face.ink, anchor="lt")
    if face.text:
        f = font(max(8, int(W * 0.095)))
        line_h = int(f.size * 1.15)
        top = band_h + pad + int(W * 0.24)
        room = max(1, (H - top - int(H * 0.16)) // line_h)
        for i, line in enumerate(wrap_text(face.text, f, W - 2 * pad, room)):
            d.text((pad, top + i * line_h), line, font=f, fill=t.black_ink)
    if face.stats:
        d.text(
            (W - pad, H - pad * 0.7),
            face.stats,
            font=font(int(W * 0.16), True),
            fill=t.black_ink,
            anchor="rd",
        )


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
    """A modifier attached under a card (RGBA), e.g. "+5♥": a strip of card stock with the modifier."""
    t = theme(theme_name)
    s = SUPERSAMPLE
    img = Image.new("RGBA", (w * s, h * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), h * s // 3, fill=t.card_face, outline=ink, width=2 * s)
    f = fitting_font(text, int(w * s * 0.9), int(h * s * 0.72), bold=True)
    d.text((w * s // 2, h * s // 2), text, font=f, fill=ink, anchor="mm")
    return _reduce(img, w, h)


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


def highlight(draw: ImageDraw.ImageDraw, box: Box, colour: RGB, width: int = 4, pad: int = 4) -> None:
    """An outline around a box to point at the last action."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle((x0 - pad, y0 - pad, x1 + pad, y1 + pad), pad + 6, outline=colour, width=width)


def zone(draw: ImageDraw.ImageDraw, box: Box, label: str, t: Theme, size: int = 18) -> Box:
    """A labelled zone; returns the inner box below the label."""
    draw.rounded_rectangle(box, 8, fill=t.zone)
    x0, y0, x1, y1 = box
    if label:
        draw_text(draw, (x0 + 8, y0 + 5), label, size, t.dim, bold=True, max_w=x1 - x0 - 16)
        return (x0 + 8, y0 + size + 12, x1 - 8, y1 - 6)
    return (x0 + 8, y0 + 6, x1 - 8, y1 - 6)


def chip(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    text: str,
    t: Theme,
    size: int = 20,
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
    draw.rounded_rectangle(box, h // 2, fill=fill or t.zone, outline=t.border)
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
    marked: RGB | None = None,
    tag: str = "",
    tag_colour: RGB | None = None,
) -> Box:
    """A player's panel: seat colour strip, name, stat chips on the right, a tag; returns the content box."""
    d = ImageDraw.Draw(canvas)
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, 12, fill=t.panel_active if active else t.panel, outline=t.border)
    colour = seat_colour(seat)
    d.rounded_rectangle((x0, y0, x0 + 12, y1), 6, fill=colour)
    head_h = 44
    cy = y0 + head_h // 2 + 2
    right = x1 - 10
    for text in reversed(chips):
        right = chip(d, (right, cy), text, t, anchor_right=True)[0] - 6
    x = x0 + 24
    if active:
        d.polygon([(x, cy - 10), (x + 14, cy), (x, cy + 10)], fill=t.highlight)
        x += 22
    if tag:
        tag_box_w = text_width(tag, font(18, True)) + 16
        room = right - x - tag_box_w - 12
    else:
        room = right - x - 8
    x += draw_text(d, (x, cy), name, 28, t.text, bold=True, max_w=room, anchor="lm") + 12
    if tag:
        chip(d, (x, cy), tag, t, size=18, fill=tag_colour or t.good, ink=contrast_ink(tag_colour or t.good))
    if marked is not None:
        highlight(d, box, marked, width=4, pad=0)
    return (x0 + 22, y0 + head_h + 4, x1 - 10, y1 - 8)


def banner(canvas: Image.Image, box: Box, title: str, text: str, colour: RGB, t: Theme) -> None:
    """The top banner: game title and whose turn it is, on the acting seat's colour."""
    d = ImageDraw.Draw(canvas)
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, 12, fill=t.panel, outline=t.border)
    d.rounded_rectangle((x0, y0, x0 + 12, y1), 6, fill=colour)
    cy = (y0 + y1) // 2
    w = draw_text(d, (x0 + 26, cy), title.upper(), 22, t.dim, bold=True, anchor="lm")
    draw_text(d, (x0 + 26 + w + 16, cy), text, 30, t.text, bold=True, max_w=x1 - x0 - w - 60, anchor="lm")


def last_action_bar(canvas: Image.Image, box: Box, text: str, success: bool | None, t: Theme) -> None:
    """A strip with the last action's text, edged in highlight colour (green/red for success/failure)."""
    d = ImageDraw.Draw(canvas)
    edge = t.highlight if success is None else (t.good if success else t.bad)
    d.rounded_rectangle(box, 10, fill=t.panel, outline=edge, width=3)
    x0, y0, x1, _ = box
    f = font(24, False)
    lines = wrap_text(text, f, x1 - x0 - 130, max_lines=2)
    draw_text(d, (x0 + 14, y0 + 10), "LAST", 20, edge, bold=True)
    for i, line in enumerate(lines):
        draw_text(d, (x0 + 84, y0 + 8 + i * 30), line, 24, t.text)


def log_lines(canvas: Image.Image, box: Box, lines: Sequence[str], t: Theme, size: int = 20) -> None:
    """The last few log lines, newest last, in a labelled zone."""
    d = ImageDraw.Draw(canvas)
    inner = zone(d, box, "LOG", t)
    line_h = int(size * 1.35)
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
