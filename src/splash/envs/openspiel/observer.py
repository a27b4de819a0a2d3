"""OpenSpiel observers of both games: tensors from the shared encoding, strings from views.

An observer answers for one seat at a time and reads only ``state.inner.view(seat)`` and the
log of what that seat saw (:class:`~splash.envs.openspiel.state.Seen`), so it never holds what
the seat may not know.

- Tensor: the encoding's observation vector (docs/envs.md); ``dict`` exposes each block of
  the layout by name.  With perfect recall the tensor is empty: the games provide no
  information-state tensor, since one with perfect recall would carry the whole history
  (docs/openspiel.md).
- Observation string: the seat's view now, as canonical JSON.
- Information-state string (perfect recall): every action as the seat saw it, one per line,
  then the view now.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pyspiel

from splash.core.encoding import Layout, Vector
from splash.core.errors import OptionError
from splash.core.i18n import message

if TYPE_CHECKING:
    from splash.core.encoding import Encoding
    from splash.envs.openspiel.state import SpielState


class SplashObserver:
    """An OpenSpiel Python observer (``tensor``, ``dict``, ``set_from``, ``string_from``)."""

    def __init__(self, encoding: Encoding, *, perfect_recall: bool) -> None:
        self.encoding = encoding
        self.perfect_recall = perfect_recall
        layout: Layout = encoding.layout
        self.tensor: Vector = layout.zeros()[:0] if perfect_recall else layout.zeros()
        self.dict: dict[str, Vector] = (
            {} if perfect_recall else {b.name: self.tensor[b.slice] for b in layout.blocks}
        )

    def set_from(self, state: SpielState, player: int) -> None:
        """Fill :attr:`tensor` with what ``player`` sees of ``state`` now (nothing with
        perfect recall)."""
        if not self.perfect_recall:
            self.tensor[:] = self.encoding.observation(state.inner, player)

    def string_from(self, state: SpielState, player: int) -> str:
        """What ``player`` sees (with the perfect recall history when asked)."""
        now = state.view_text(player)
        if not self.perfect_recall:
            return now
        return f"{state.history_text(player)}\n{now}"


def make_observer(
    encoding: Encoding, iig_obs_type: Any = None, params: Any = None
) -> SplashObserver:
    """The observer OpenSpiel's ``make_py_observer`` returns.

    The observation types offered are the seat's own: public and private information of
    the observing seat (``PrivateInfoType.SINGLE_PLAYER``); with or without perfect recall.
    """
    if params:
        raise OptionError("params", params, message("observers take no parameters"))
    if iig_obs_type is None:
        return SplashObserver(encoding, perfect_recall=False)
    private = iig_obs_type.private_info
    if not iig_obs_type.public_info or private != pyspiel.PrivateInfoType.SINGLE_PLAYER:
        raise OptionError(
            "iig_obs_type",
            str(iig_obs_type),
            message("only the observing seat's own information is offered"),
        )
    return SplashObserver(encoding, perfect_recall=bool(iig_obs_type.perfect_recall))
