"""The standard AI interfaces of both games.

- :mod:`splash.envs.encoding`: the fixed-size action indices, masks and observation vectors;
- :mod:`splash.envs.aec`: PettingZoo AEC environments (:func:`bash_env`, :func:`tower_env`,
  and :func:`game_env` for any game) and their parallel forms;
- :mod:`splash.envs.rewards`: the illegal-action record and the shaped reward they share;
- :mod:`splash.envs.single`: single-agent Gymnasium environments, registered here as
  ``splash/Bash-v0`` and ``splash/Tower-v0`` (``gymnasium.make("splash/Bash-v0")``);
- :mod:`splash.envs.vector`: Splash & Bash games stepped by the compiled core, registered as
  ``splash/BashFast-v0`` (``gymnasium.make_vec("splash/BashFast-v0", num_envs=256)`` is the
  vector environment, ``gymnasium.make`` one game of it).

The environments are imported on first use, so that the encodings need neither PettingZoo
nor Gymnasium.
"""

from __future__ import annotations

from typing import Any

GYM_IDS = {
    "splash/Bash-v0": "splash.envs.single:BashEnv",
    "splash/Tower-v0": "splash.envs.single:TowerEnv",
    "splash/BashFast-v0": "splash.envs.vector:BashFastEnv",
}
VECTOR_IDS = {"splash/BashFast-v0": "splash.envs.vector:BashVectorEnv"}
_LAZY = {
    "bash_env": "splash.envs.aec",
    "game_env": "splash.envs.aec",
    "tower_env": "splash.envs.aec",
    "bash_parallel_env": "splash.envs.aec",
    "tower_parallel_env": "splash.envs.aec",
    "SplashAECEnv": "splash.envs.aec",
    "SplashParallelEnv": "splash.envs.aec",
    "BashEnv": "splash.envs.single",
    "TowerEnv": "splash.envs.single",
    "BashVectorEnv": "splash.envs.vector",
    "BashFastEnv": "splash.envs.vector",
    "encoding_for": "splash.envs.encoding",
}


def register_gymnasium() -> None:
    """Register the Gymnasium ids (nothing when Gymnasium is not installed)."""
    try:
        import gymnasium
    except ImportError:
        return
    for env_id, entry_point in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id, entry_point=entry_point, vector_entry_point=VECTOR_IDS.get(env_id)
            )


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'splash.envs' has no attribute {name!r}")


register_gymnasium()

__all__ = [
    "GYM_IDS",
    "VECTOR_IDS",
    "BashEnv",
    "BashFastEnv",
    "BashVectorEnv",
    "SplashAECEnv",
    "SplashParallelEnv",
    "TowerEnv",
    "bash_env",
    "bash_parallel_env",
    "encoding_for",
    "game_env",
    "register_gymnasium",
    "tower_env",
    "tower_parallel_env",
]
