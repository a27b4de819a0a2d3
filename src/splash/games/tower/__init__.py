"""Splash!: the rules engine of the stacking game (physics-free: outcomes come from providers)."""

from splash.games.tower import referee
from splash.games.tower.game import TowerGame
from splash.games.tower.options import TowerOptions
from splash.games.tower.state import TowerState

__all__ = ["TowerGame", "TowerOptions", "TowerState", "referee"]
