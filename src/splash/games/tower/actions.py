"""The enumeration of Splash! actions.

Discrete: ``take`` (draft), ``give``, ``base``, ``keep``, and the chance outcome ``deal``,
one per piece.  Continuous, one id each: ``place`` (a placement, with or without its pose,
TD13) and the chance outcome ``result`` (what the placement did, TD08).
"""

from __future__ import annotations

from collections.abc import Mapping

from splash.core.actions import Action, ActionSpace, make_action
from splash.core.errors import MalformedActionError
from splash.core.i18n import Message, message

PIECE_KINDS = ("take", "give", "base", "keep", "deal")
CONTINUOUS = ("place", "result")
POSE_KEYS = ("face", "rotation_deg", "x_mm", "y_mm")


def build_action_space(piece_ids: tuple[str, ...]) -> ActionSpace:
    """Every discrete action, then one id for each continuous kind."""
    specs: list[tuple[str, dict[str, str]]] = [
        (kind, {"piece": piece}) for kind in PIECE_KINDS for piece in piece_ids
    ]
    specs += [(kind, {}) for kind in CONTINUOUS]
    return ActionSpace([make_action(i, kind, **params) for i, (kind, params) in enumerate(specs)])


def parse(space: ActionSpace, doc: object) -> Action:
    """The action a JSON form or id names, continuous kinds with their parameters."""
    if isinstance(doc, Mapping) and doc.get("kind") in CONTINUOUS:
        kind = str(doc["kind"])
        base = space.find(kind)
        params = {k: v for k, v in doc.items() if k != "kind"}
        if kind == "place":
            unknown = set(params) - set(POSE_KEYS)
            if unknown:
                raise MalformedActionError(
                    doc, message("unknown placement keys: {keys}", keys=", ".join(sorted(unknown)))
                )
        elif set(params) != {"outcome"}:
            raise MalformedActionError(doc, message("a result carries exactly one 'outcome'"))
        return make_action(base.id, kind, **params)
    return space.from_json(doc)


def action_text(action: Action) -> Message:
    """A readable form of a Splash! action."""
    kind = action.kind
    if kind in ("take", "deal"):
        return message("take {piece}", piece=action.param("piece"))
    if kind == "give":
        return message("give {piece}", piece=action.param("piece"))
    if kind == "base":
        return message("make {piece} the new base", piece=action.param("piece"))
    if kind == "keep":
        return message("take back {piece}", piece=action.param("piece"))
    if kind == "place":
        if not action.params:
            return message("place the piece")
        pose = dict(action.params)
        return message(
            "place on face {face}, turned {rotation} deg, at ({x}, {y}) mm",
            face=pose.get("face", "?"),
            rotation=pose.get("rotation_deg", "?"),
            x=pose.get("x_mm", "?"),
            y=pose.get("y_mm", "?"),
        )
    outcome = dict(action.params).get("outcome") and action.param("outcome")
    result = outcome.get("result", "?") if isinstance(outcome, dict) else "?"
    return message("the tower: {result}", result=result)
