"""Images of games: render.board(game_id, view) and render.hand(game_id, view) return PNG bytes.

Renderers draw from a game's view JSON only, never from its state. A game without its own renderer gets a
plain, readable generic image of its view.
"""

from render.api import RENDERERS, board, board_image, hand, hand_image, warm

__all__ = ["RENDERERS", "board", "board_image", "hand", "hand_image", "warm"]
