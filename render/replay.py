"""A replay: spectator views drawn with the game's own board (render/api.py) into one animated GIF that fits
an upload limit.

    animation = animate(game_id, views, names, limit=10 * 2**20)
    animation.data, animation.frames, animation.width

GIF, not animated WebP: GIF is the one animated format every Discord client plays inline (animated
WebP support has been uneven across clients), and it is quick to make. Measured on 100-turn replays
(bench/render.py, replay row): the GIF takes 1.5-2.7 s and at most 4.4 MB, within 10 MiB; the same frames
as lossless WebP are 2-3 times smaller but take 2-5 times as long. All frames share one palette (a third
smaller than a palette per frame) and Pillow stores only what changed from the frame before. Each frame
shows a turn for FRAME_MS, the last one LAST_MS; a thin bar at the bottom shows how far the game has come.

Too big for the limit: fewer frames first (evenly spread, the first and last kept) down to MIN_FRAMES, then
smaller frames (MIN_WIDTH), then fewer again down to the last position alone, then a thumbnail of it; the
smallest image is returned even if it does not fit (the caller decides), so a replay never fails for its
size.
"""

from __future__ import annotations

import io
import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from render import api, kit

JSON = dict[str, Any]

FRAME_MS = 1000  # a turn on screen: long enough to read the headline and see what changed
LAST_MS = 4000  # the final position, held before the loop starts again
MAX_FRAMES = 120  # two minutes of replay; a longer game is shown in 120 evenly spread turns
MIN_FRAMES = 24  # below this, frames get smaller rather than fewer
MIN_WIDTH = 200  # frames are not shrunk narrower than this before they are down to the last one
TINY_WIDTH = 48  # nor the last one narrower than this
COLOURS = 96  # the shared palette (boards use few colours; text edges need the rest)
BAR = 6  # the progress bar's height in pixels
SLACK = 0.92  # aim this far under the limit when estimating how many frames or pixels fit


@dataclass(frozen=True, slots=True)
class Animation:
    """An encoded replay and what it shows."""

    data: bytes
    frames: int  # frames in the image
    turns: int  # the views it was given: the turns of the game
    width: int
    height: int
    fits: bool  # len(data) <= the limit it was made for

    filename = "replay.gif"
    mime = "image/gif"


def spread(count: int, keep: int) -> list[int]:
    """`keep` indices out of range(count), evenly spread, always the first and the last."""
    if keep >= count:
        return list(range(count))
    if keep <= 1:
        return [count - 1]
    return sorted({round(i * (count - 1) / (keep - 1)) for i in range(keep)})


def animate(
    game_id: str,
    views: Sequence[JSON],
    names: Sequence[str] | None = None,
    limit: int = 10 * 1024 * 1024,
    theme: str | None = None,
) -> Animation:
    """The spectator views as an animated GIF of at most `limit` bytes (see the module doc); identical
    pictures are shown once."""
    if not views:
        raise ValueError("a replay needs at least one view")
    chosen = [views[i] for i in spread(len(views), MAX_FRAMES)]
    t = kit.theme(theme)
    frames = _drawn(game_id, chosen, names, theme)
    palette = frames[0].palette
    width, height = max(f.width for f in frames), max(f.height for f in frames)
    keep, scale = len(frames), 1.0
    while True:
        picked = [frames[i] for i in spread(len(frames), keep)]
        data = _encode(picked, palette, width, height, scale, (t.bg, t.highlight))
        if len(data) <= limit:
            break
        room = SLACK * limit / len(data)
        if keep > MIN_FRAMES:  # fewer frames first
            keep = max(MIN_FRAMES, min(keep - 1, math.floor(keep * room)))
        elif width * scale > MIN_WIDTH:  # then smaller ones (the size goes roughly with the area)
            scale = max(MIN_WIDTH / width, min(scale * 0.9, scale * math.sqrt(room)))
        elif keep > 1:  # then fewer again, down to the last position alone
            keep = max(1, min(keep - 1, math.floor(keep * room)))
        elif width * scale > TINY_WIDTH:  # a thumbnail of it, at worst
            scale = max(TINY_WIDTH / width, min(scale * 0.9, scale * math.sqrt(room)))
        else:
            break
    w, h = max(1, round(width * scale)), max(1, round((height + BAR) * scale))
    return Animation(data, len(picked), len(views), w, h, len(data) <= limit)


@dataclass(frozen=True, slots=True)
class _Frame:
    """A board mapped onto the shared palette, its indices compressed (a tall board is 1 MB raw, 50 KB
    packed, so a long game's frames stay small in memory)."""

    width: int
    height: int
    packed: bytes
    palette: Image.Image

    @classmethod
    def of(cls, image: Image.Image, palette: Image.Image) -> _Frame:
        mapped = image.quantize(palette=palette, dither=Image.Dither.NONE)
        return cls(image.width, image.height, zlib.compress(mapped.tobytes(), 1), palette)

    def image(self) -> Image.Image:
        """The frame as a palette image."""
        out = Image.frombytes("P", (self.width, self.height), zlib.decompress(self.packed))
        out.putpalette(self.palette.getpalette() or [])
        return out


def _drawn(
    game_id: str, views: Sequence[JSON], names: Sequence[str] | None, theme: str | None
) -> list[_Frame]:
    """Every view drawn and mapped onto one palette (taken from up to 12 boards spread over the game),
    without a frame identical to the one before it."""
    sampled = spread(len(views), 12)
    boards = {i: api.board_image(game_id, views[i], names, theme).convert("RGB") for i in sampled}
    palette = _palette(list(boards.values()))
    kept: list[_Frame] = []
    for i, view in enumerate(views):
        board = boards.pop(i, None) or api.board_image(game_id, view, names, theme).convert("RGB")
        frame = _Frame.of(board, palette)
        if not kept or (frame.width, frame.height, frame.packed) != (
            kept[-1].width,
            kept[-1].height,
            kept[-1].packed,
        ):
            kept.append(frame)
    return kept


def _palette(boards: list[Image.Image]) -> Image.Image:
    """One palette for every frame, from quarter-size copies of the sampled boards."""
    sample = [b.reduce(4) for b in boards]
    sheet = Image.new("RGB", (max(s.width for s in sample), sum(s.height for s in sample)))
    y = 0
    for s in sample:
        sheet.paste(s, (0, y))
        y += s.height
    return sheet.quantize(COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _nearest(palette: Image.Image, colour: tuple[int, int, int]) -> int:
    """The palette index closest to a colour."""
    flat = palette.getpalette() or []

    def distance(i: int) -> int:
        return sum((flat[i * 3 + k] - colour[k]) ** 2 for k in range(3))

    return min(range(len(flat) // 3), key=distance)


def _encode(
    frames: list[_Frame],
    palette: Image.Image,
    width: int,
    height: int,
    scale: float,
    colours: tuple[tuple[int, int, int], tuple[int, int, int]],
) -> bytes:
    """The frames on one canvas (the tallest board's; shorter ones padded below in the background colour),
    a progress bar under each, scaled, as a looping GIF on the shared palette."""
    background, bar = (_nearest(palette, c) for c in colours)
    w, h = max(1, round(width * scale)), max(1, round((height + BAR) * scale))
    out = []
    for i, frame in enumerate(frames):
        canvas = Image.new("P", (width, height + BAR), background)
        canvas.putpalette(palette.getpalette() or [])
        canvas.paste(frame.image(), (0, 0))
        done = width * (i + 1) // len(frames)
        ImageDraw.Draw(canvas).rectangle((0, height, done - 1, height + BAR - 1), fill=bar)
        if scale != 1.0:
            small = canvas.convert("RGB").resize((w, h), Image.Resampling.LANCZOS)
            canvas = small.quantize(palette=palette, dither=Image.Dither.NONE)
        out.append(canvas)
    durations = [FRAME_MS] * (len(out) - 1) + [LAST_MS]
    buf = io.BytesIO()
    out[0].save(buf, format="GIF", save_all=True, append_images=out[1:], duration=durations, loop=0)
    return buf.getvalue()
