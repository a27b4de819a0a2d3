"""The rules engines, one package per game."""
