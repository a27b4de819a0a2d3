"""The ``ppo`` bot: a policy learned by sb3-contrib's ``MaskablePPO`` plays Splash & Bash.

``ppo:path=policy.zip`` loads the policy ``examples/train_ppo.py`` saved (once per path and
process) and chooses, from its seat's observation and legal actions in the shared encoding
(:class:`~splash.games.bash.encoding.BashEncoding`, what
:class:`~splash.envs.vector.BashVectorEnv` gave it while it learned), the most probable
action (``deterministic=true``, the default) or one drawn from the policy's probabilities
with the bot's own seeded generator (``deterministic=false``).

It needs the optional extra ``rl`` (PyTorch, Stable-Baselines3, sb3-contrib); without it, or
with a file that is missing or is not such a policy, :func:`load_policy` raises an
:class:`~splash.core.errors.OptionError` saying so.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from splash.core.actions import Action
from splash.core.errors import ActionError, OptionError
from splash.core.i18n import message
from splash.core.protocol import State
from splash.games.bash import BashGame, BashState
from splash.games.bash.encoding import BashEncoding

_POLICIES: dict[Path, Any] = {}
_ENCODINGS: dict[int, BashEncoding] = {}


def load_policy(path: str) -> Any:
    """The ``MaskablePPO`` model saved at ``path``, loaded once per process (on the CPU, one
    PyTorch thread: a bot decides one position at a time).  Raises :class:`OptionError`
    when the extra ``rl`` is not installed or the file cannot be read as such a model."""
    spec = f"path={path}"
    file = Path(path).expanduser()
    try:
        key = file.resolve()
    except OSError:
        key = file
    if key in _POLICIES:
        return _POLICIES[key]
    try:
        import torch
        from sb3_contrib import MaskablePPO
    except ImportError:
        raise OptionError(
            "bot",
            spec,
            message("the ppo bot needs the optional extra rl (pip install 'splash-games[rl]')"),
        ) from None
    if not file.is_file():
        raise OptionError("bot", spec, message("no saved policy at {file}", file=str(file)))
    torch.set_num_threads(1)
    try:
        model = MaskablePPO.load(str(file), device="cpu")
    except Exception as error:  # a zip of another kind, a pickle of another version ...
        raise OptionError(
            "bot",
            spec,
            message(
                "cannot read a saved MaskablePPO policy from {file}: {error}",
                file=str(file),
                error=f"{type(error).__name__}: {error}",
            ),
        ) from None
    _POLICIES[key] = model
    return model


def _flag(spec_key: str, value: str) -> bool:
    text = value.strip().lower()
    if text in {"true", "yes", "1"}:
        return True
    if text in {"false", "no", "0"}:
        return False
    raise OptionError("bot", f"{spec_key}={value}", message("must be true or false"))


class PpoBot:
    """Plays the seat to act with a saved ``MaskablePPO`` policy (module docs)."""

    name = "ppo"

    def __init__(
        self, seed: int | np.random.SeedSequence, path: str, *, deterministic: bool = True
    ) -> None:
        self.seed = seed
        self.path = path
        self.deterministic = deterministic
        self.model = load_policy(path)
        self._rng = np.random.default_rng(seed)

    def act(self, state: State) -> Action:
        """The policy's action for ``state.to_act()``, among the legal ones."""
        game = state.game
        if not isinstance(state, BashState) or not isinstance(game, BashGame):
            raise ActionError(message("the ppo bot plays Splash & Bash only"))
        encoding = _ENCODINGS.get(id(game))
        if encoding is None or encoding.bash is not game:
            encoding = _ENCODINGS[id(game)] = BashEncoding(game)
        seat = state.to_act()
        observation = encoding.observation(state, seat)
        mask = encoding.legal_mask(state)
        if not mask.any():
            raise ActionError(
                message("no legal action to choose in {state}", state=state.describe())
            )
        expected = self.model.observation_space.shape
        if expected != observation.shape:
            raise OptionError(
                "bot",
                f"path={self.path}",
                message(
                    "the policy was trained on observations of shape {trained}, "
                    "these games give {given}",
                    trained=str(expected),
                    given=str(observation.shape),
                ),
            )
        index = self._choose(observation, mask)
        return encoding.action_of(state, index)

    def _choose(self, observation: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> int:
        if self.deterministic:
            action, _ = self.model.predict(observation, action_masks=mask, deterministic=True)
            return int(action)
        import torch

        policy = self.model.policy
        tensor, _ = policy.obs_to_tensor(observation)
        with torch.no_grad():
            distribution = policy.get_distribution(tensor, action_masks=mask[None, :])
            probs = distribution.distribution.probs[0].cpu().numpy().astype(np.float64)
        probs = np.where(mask, probs, 0.0)
        return int(self._rng.choice(len(probs), p=probs / probs.sum()))


def make_ppo(params: dict[str, str], seed: int | np.random.SeedSequence) -> PpoBot:
    """The ``ppo`` bot of a spec's parameters (their keys checked by the caller):
    ``path`` (required), ``deterministic``."""
    path = params.get("path", "").strip()
    if not path:
        raise OptionError("bot", "ppo", message("the ppo bot needs path=FILE, a saved policy"))
    deterministic = _flag("deterministic", params.get("deterministic", "true"))
    return PpoBot(seed, path, deterministic=deterministic)


__all__ = ["PpoBot", "load_policy", "make_ppo"]
