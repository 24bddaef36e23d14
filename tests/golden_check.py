"""Golden-image comparison shared by the render tests, and the pixel checks they share.

Goldens are rendered at full size, stored at half size (to keep the repository small) and compared with a
small tolerance. Regenerate them all with:
    AGORA_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/render/test_render.py \
        tests/games/ophion/test_render_ophion.py tests/games/test_render_card_games.py
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from render.kit import RGB, Box

GOLDEN = Path(__file__).with_name("golden")
REGEN = os.environ.get("AGORA_REGEN_GOLDEN") == "1"
TOLERANCE = 0.01  # mean absolute difference per channel, as a share of 255
SCALE = 2


def image(png: bytes) -> Image.Image:
    """A PNG's bytes as an RGB image (failing if they are not a PNG)."""
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(png)).convert("RGB")


def check_golden(name: str, png: bytes) -> None:
    """Compare with tests/golden/NAME.png, or write it when AGORA_REGEN_GOLDEN=1."""
    path = GOLDEN / f"{name}.png"
    got = image(png).reduce(SCALE)
    if REGEN:
        GOLDEN.mkdir(exist_ok=True)
        got.quantize(64, method=Image.Quantize.FASTOCTREE).save(path, optimize=True)
        return
    if not path.exists():
        pytest.fail(
            f"no golden image {path}; create it with AGORA_REGEN_GOLDEN=1 (see tests/golden_check.py)"
        )
    want = image(path.read_bytes())
    assert got.size == want.size, f"{name}: size {got.size} != golden {want.size}"
    diff = sum(ImageStat.Stat(ImageChops.difference(got, want)).mean) / 3 / 255
    assert diff < TOLERANCE, f"{name}: differs from its golden image by {diff:.1%}"


def changes(a: Image.Image, b: Image.Image) -> list[tuple[int, int]]:
    """The pixels (x, y) where two images of one size differ (every other column)."""
    assert a.size == b.size
    pa, pb = a.convert("RGB").load(), b.convert("RGB").load()
    assert pa is not None and pb is not None
    return [(x, y) for y in range(a.height) for x in range(0, a.width, 2) if pa[x, y] != pb[x, y]]


def inside(points: list[tuple[int, int]], boxes: list[Box], pad: int = 8) -> bool:
    """Whether every point lies in one of the boxes (left, top, right, bottom), give or take pad."""
    return all(
        any(b[0] - pad <= x <= b[2] + pad and b[1] - pad <= y <= b[3] + pad for b in boxes) for x, y in points
    )


def near(img: Image.Image, colour: RGB, tolerance: int = 12) -> int:
    """How many pixels are within tolerance of a colour."""
    total = 0
    for n, c in img.convert("RGB").getcolors(1 << 16) or []:
        assert isinstance(c, tuple)
        if all(abs(a - b) <= tolerance for a, b in zip(c, colour, strict=True)):
            total += n
    return total
