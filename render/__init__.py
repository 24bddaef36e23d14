"""Images of games: render.board(game_id, view) and render.hand(game_id, view) return PNG bytes.

Renderers draw from a game's view JSON only, never from its state; each game's board module is
render/games/<id>.py, found by id. A game without one gets a plain, readable generic image of its view.
"""

from render.api import board, board_image, game_ids, hand, hand_image, warm

__all__ = ["board", "board_image", "game_ids", "hand", "hand_image", "warm"]
