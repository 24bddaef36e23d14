"""Write board and hand images of random positions of every registered game, each with its alt text beside it
(a .txt: engine.table.describe's board_alt and hand_alt), the one-page rules of every game with a tutorial
(render/howto.py, its alt text beside it), a contact sheet per theme, and the colour-blind check's table
(render/vision.py), printed and written as DIR/colours.md.

Usage: python -m render.gallery DIR [--seed N] [--theme dark|light|contrast|all]
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from engine.ai.random_player import RandomPlayer
from engine.match import Match
from engine.registry import games
from engine.table import describe, lesson
from engine.table.present import of
from render import api, generic, howto, kit, vision

JSON = dict[str, Any]
NAMES = ["Ada", "Bartholomew the Magnificent", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal"]
STAGES = (("start", 0.0), ("early", 0.2), ("middle", 0.5), ("late", 0.8), ("end", 1.0))


def play(game_id: str, num_players: int, seed: int, steps: int | None = None) -> Match:
    """A match played forward by random players for `steps` actions (to the end when None)."""
    m = Match.new(game_id, num_players, seed)
    ai = RandomPlayer(seed)
    limit = m.game.max_actions if steps is None else steps
    for _ in range(limit):
        if m.is_over():
            break
        seat = m.to_act()[0]
        m.apply(ai.choose(m.game, m.state, seat))
    return m


def positions(game_id: str, num_players: int, seed: int) -> list[tuple[str, Match]]:
    """Matches at the start, early, middle, late and end of one random game."""
    length = len(play(game_id, num_players, seed).log)
    return [(stage, play(game_id, num_players, seed, round(length * f))) for stage, f in STAGES]


def player_counts(game_id: str) -> list[int]:
    """2 (or the minimum) and the maximum number of players."""
    g = games()[game_id]
    return sorted({max(g.min_players, 2), g.max_players})


def write(out: Path, theme: str = "dark", seed: int = 1) -> list[tuple[str, Path]]:
    """Write every image into out; returns (caption, path) for the contact sheet."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[tuple[str, Path]] = []
    for game_id in games():
        for n in player_counts(game_id):
            for stage, m in positions(game_id, n, seed):
                g, names = m.game, NAMES[:n]
                seat = m.to_act()[0] if m.to_act() else 0
                stem = f"{game_id}_{n}p_{stage}_{theme}"
                public, own = g.view(m.state, None), g.view(m.state, seat)
                title = g.title or game_id
                images = {
                    "board": (api.board(game_id, public, names, theme),
                              describe.board_alt(of(g), title, public, names)),
                    f"hand_seat{seat + 1}": (api.hand(game_id, own, names, theme),
                                             describe.hand_alt(of(g), own, names)),
                }  # fmt: skip
                for kind, (png, alt) in images.items():
                    path = out / f"{stem}_{kind}.png"
                    path.write_bytes(png)
                    path.with_suffix(".txt").write_text(alt + "\n", encoding="utf-8")
                    written.append((f"{game_id} {n}p {stage} {kind} ({len(m.log)} moves)", path))
        m = play(game_id, player_counts(game_id)[-1], seed, 40)
        path = out / f"{game_id}_generic_{theme}.png"
        path.write_bytes(kit.to_png(generic.board(game_id, m.game.view(m.state, None), NAMES, theme)))
        written.append((f"{game_id} through the generic renderer", path))
        if lesson.of(m.game) is not None:
            path = out / f"{game_id}_howto_{theme}.png"
            path.write_bytes(howto.page(game_id, theme))
            path.with_suffix(".txt").write_text(howto.alt(game_id) + "\n", encoding="utf-8")
            written.append((f"{game_id}: how to play (/rules, h)", path))
    return written


def contact_sheet(items: list[tuple[str, Path]], path: Path, theme: str = "dark", columns: int = 4) -> None:
    """A grid of thumbnails with captions."""
    t = kit.theme(theme)
    thumb_w, cap_h, pad = 400, 44, 12
    thumbs = []
    for caption, p in items:
        img = Image.open(p).convert("RGB")
        img = img.resize((thumb_w, max(1, img.height * thumb_w // img.width)), Image.Resampling.LANCZOS)
        thumbs.append((caption, img))
    rows = [thumbs[i : i + columns] for i in range(0, len(thumbs), columns)]
    row_hs = [max(img.height for _, img in row) + cap_h + pad for row in rows]
    sheet = kit.new_canvas(columns * (thumb_w + pad) + pad, sum(row_hs) + pad, t)
    d = ImageDraw.Draw(sheet)
    y = pad
    for row, rh in zip(rows, row_hs, strict=True):
        for i, (caption, img) in enumerate(row):
            x = pad + i * (thumb_w + pad)
            kit.draw_text(d, (x, y + 4), caption, 18, t.text, max_w=thumb_w)
            sheet.paste(img, (x, y + cap_h - 8))
        y += rh
    buf = io.BytesIO()
    sheet.save(buf, format="PNG", optimize=False, compress_level=6)
    path.write_bytes(buf.getvalue())


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--theme", choices=(*kit.THEMES, "all"), default="all")
    args = parser.parse_args(argv)
    themes = list(kit.THEMES) if args.theme == "all" else [args.theme]
    for theme in themes:
        items = write(args.dir, theme, args.seed)
        contact_sheet(items, args.dir / f"contact_sheet_{theme}.png", theme)
        print(f"{len(items)} images with their alt text and contact_sheet_{theme}.png written to {args.dir}")
    table = vision.table(sorted(games()), themes)
    head = f"Worst pair without another cue, ΔE00 (pass: none below {vision.MIN_DELTA:g} without a cue)"
    (args.dir / "colours.md").write_text(f"# Colours for colour-blind eyes\n\n{head}\n\n{table}\n", "utf-8")
    print(table)


if __name__ == "__main__":
    main()
