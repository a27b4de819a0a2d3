"""Splash & Bash: the rules engine of the team race around the pool."""

from splash.games.bash.config import BashConfig
from splash.games.bash.game import BashGame
from splash.games.bash.state import BashState

__all__ = ["BashConfig", "BashGame", "BashState"]
