"""Third, a tiny game declared outside ``splash``: the proof that a game needs no change
under ``src/`` (docs/adding-a-game.md)."""
