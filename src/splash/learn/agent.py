"""The file of a learned Splash & Bash agent: a numpy ``.npz`` archive.

An agent file holds (format :data:`FORMAT`):

- ``format``: the tag :data:`FORMAT`; a file without it, or with another, is refused;
- ``params``: the network's weights (:attr:`~splash.learn.td.ValueNet.params`, float64);
- ``shape``: ``[inputs, hidden, teams]``: the size of the feature layout
  (:class:`~splash.games.bash.afterstate.AfterstateEncoding`), the hidden units and the
  number of teams it was trained for;
- ``training``: how it was trained (:class:`Training`): the seed, the workers, the games
  asked for and played, the decisions learned from, the seconds of training, and the
  learner's settings, so that ``splash train bash`` with the same ``--out`` goes on where it
  stopped.

:func:`read_agent` refuses a file it cannot read as such an agent with a
:class:`~splash.core.errors.DocumentError` that names the file and what is wrong.
"""

from __future__ import annotations

import os
import zipfile
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path

import numpy as np
from numpy.lib.npyio import NpzFile

from splash.core.errors import DocumentError
from splash.core.i18n import Message, message
from splash.learn.td import TDSettings, ValueNet

FORMAT = "splash/td-agent/1"
"""The format tag of an agent file."""
SHIPPED = "td_agent.npz"
"""The file name of the agent shipped in :mod:`splash.learn`'s ``data`` folder."""


@dataclass(frozen=True)
class Training:
    """How an agent was trained (module docs)."""

    seed: int
    workers: int
    games: int
    """The games asked for (``--games``)."""
    played: int
    """The games played so far (fewer than :attr:`games` after ``--minutes``)."""
    positions: int
    """The decisions with a choice the learner took."""
    seconds: float
    """The training time, evaluations left out."""
    settings: TDSettings


@dataclass(frozen=True)
class AgentFile:
    """An agent read from its file: its network, team count and training."""

    net: ValueNet
    teams: int
    training: Training


_SETTINGS = ("hidden", "alpha", "lam", "epsilon", "games_at_once")


def write_agent(path: Path, agent: AgentFile) -> None:
    """Write ``agent`` to ``path`` (atomically: the old file or the new one, never part);
    :class:`DocumentError` when it cannot be written."""
    training = agent.training
    settings = asdict(training.settings)
    partial = path.with_name(f".{path.name}.partial")
    try:
        with partial.open("wb") as stream:
            np.savez(
                stream,
                format=np.array(FORMAT),
                params=agent.net.params,
                shape=np.array([agent.net.inputs, agent.net.hidden, agent.teams], np.int64),
                training=np.array(
                    [
                        training.seed,
                        training.workers,
                        training.games,
                        training.played,
                        training.positions,
                    ],
                    np.int64,
                ),
                seconds=np.array(training.seconds, np.float64),
                settings=np.array([float(settings[key]) for key in _SETTINGS], np.float64),
            )
        os.replace(partial, path)
    except OSError as error:
        partial.unlink(missing_ok=True)
        raise DocumentError(
            message("cannot write {file}: {error}", file=str(path), error=error.strerror)
        ) from None


def _broken(path: Path | str, why: Message) -> DocumentError:
    return DocumentError(message("{file} is not a splash TD agent: {why}", file=str(path), why=why))


def _unreadable(error: Exception) -> Message:
    return message("cannot read it ({error})", error=f"{type(error).__name__}: {error}")


def read_agent(path: Path) -> AgentFile:
    """The agent saved at ``path`` (module docs)."""
    try:
        loaded = np.load(path, allow_pickle=False)
    except (FileNotFoundError, IsADirectoryError):
        raise DocumentError(message("no agent file at {file}", file=str(path))) from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
        raise _broken(path, _unreadable(error)) from None
    if not isinstance(loaded, NpzFile):
        raise _broken(path, message("not an .npz archive"))
    try:
        with loaded:
            found = {name: loaded[name] for name in loaded.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
        raise _broken(path, _unreadable(error)) from None
    if "format" not in found:
        raise _broken(path, message("no format tag"))
    tag = str(found["format"])
    if tag != FORMAT:
        raise DocumentError(
            message(
                "{file} has the format {found!r}, not {expected}",
                file=str(path),
                found=tag,
                expected=FORMAT,
            )
        )
    return _agent_of(found, path)


def _agent_of(found: dict[str, np.ndarray], path: Path) -> AgentFile:
    missing = [
        key for key in ("params", "shape", "training", "seconds", "settings") if key not in found
    ]
    if missing:
        raise _broken(path, message("no {entry!r} entry", entry=missing[0]))
    shape, counts, numbers = found["shape"], found["training"], found["settings"]
    if (
        shape.shape != (3,)
        or counts.shape != (5,)
        or numbers.shape != (len(_SETTINGS),)
        or not np.issubdtype(shape.dtype, np.integer)
        or not np.issubdtype(counts.dtype, np.integer)
    ):
        raise _broken(path, message("an entry of the wrong shape"))
    inputs, hidden, teams = (int(x) for x in shape)
    params = found["params"]
    if inputs < 1 or hidden < 1 or not 2 <= teams <= 4:
        raise _broken(path, message("a network of no size"))
    if params.shape != (hidden * inputs + 2 * hidden + 1,) or not np.all(np.isfinite(params)):
        raise _broken(path, message("weights that do not fit the network"))
    net = ValueNet(inputs, hidden, np.random.default_rng(0))
    net.params[:] = params
    values = dict(zip(_SETTINGS, (float(x) for x in numbers), strict=True))
    settings = TDSettings(
        hidden=int(values["hidden"]),
        alpha=values["alpha"],
        lam=values["lam"],
        epsilon=values["epsilon"],
        games_at_once=int(values["games_at_once"]),
    )
    seed, workers, games, played, positions = (int(x) for x in counts)
    training = Training(seed, workers, games, played, positions, float(found["seconds"]), settings)
    return AgentFile(net, teams, training)


def shipped_agent() -> AgentFile:
    """The agent shipped with splash (:data:`SHIPPED`)."""
    with resources.as_file(resources.files("splash.learn") / "data" / SHIPPED) as file:
        return read_agent(file)


__all__ = [
    "FORMAT",
    "SHIPPED",
    "AgentFile",
    "Training",
    "read_agent",
    "shipped_agent",
    "write_agent",
]
