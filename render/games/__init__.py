"""One board module per game, found by game id (render/api.py): render/games/<id>.py, or a package
render/games/<id>/ when it is long."""
