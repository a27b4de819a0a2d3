"""Configurations of the fast core's tests: decks that use every primitive, as data or files."""

from __future__ import annotations

import copy
from importlib import resources
from pathlib import Path
from typing import Any

from splash.games.bash.config import BashConfig

EXTRA_HIGH_TIDE: dict[str, Any] = {
    "thief": {"count": 3, "timing": "any", "effects": [{"primitive": "steal_card"}]},
    "spite": {"count": 3, "timing": "after_walk", "effects": [{"primitive": "discard_card"}]},
    "pull": {
        "count": 2,
        "timing": "any",
        "effects": [
            {
                "primitive": "push",
                "direction": "outward",
                "target": {"team": "own", "next_to": True},
            }
        ],
    },
    "grab": {
        "count": 2,
        "timing": "after_lane",
        "effects": [{"primitive": "fall", "target": {"within": 3}}],
    },
    "sprint": {
        "count": 2,
        "timing": "any",
        "effects": [
            {"primitive": "move", "squares": 5, "tail_wind": True},
            {"primitive": "place_obstacle", "count": 2},
        ],
    },
    "storm": {
        "count": 2,
        "timing": "before_roll",
        "effects": [
            {"primitive": "extra_die", "dice": 2},
            {"primitive": "roll_modifier", "amount": -2, "minimum": 2},
            {"primitive": "free_lane_change"},
        ],
    },
}
EXTRA_LOW_TIDE: dict[str, Any] = {
    "gust": {
        "count": 3,
        "timing": "on_draw",
        "effects": [{"primitive": "move", "squares": 2, "tail_wind": True}],
    },
    "nets": {
        "count": 2,
        "timing": "on_draw",
        "effects": [{"primitive": "place_obstacle", "count": 3}],
    },
}


def every_primitive_data() -> dict[str, Any]:
    """The shipped board and decks with cards that use every primitive, four lifebuoys,
    and a high-tide centre lane."""
    shipped = Path(str(resources.files("splash.games.bash") / "data"))
    data = copy.deepcopy(BashConfig.data_parts(shipped))
    data["decks"]["high_tide"].update(copy.deepcopy(EXTRA_HIGH_TIDE))
    data["decks"]["high_tide"]["lifebuoy"]["count"] = 4
    data["decks"]["low_tide"].update(copy.deepcopy(EXTRA_LOW_TIDE))
    data["board"]["colours"]["centre"] = "high_tide"
    return data


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    return repr(value)


def write_data_dir(folder: Path, data: dict[str, Any]) -> Path:
    """``data`` (:meth:`BashConfig.data_parts` form) as the three TOML files of a folder."""
    board = data["board"]
    lines = [
        f"{key} = {_toml_value(value)}"
        for key, value in board.items()
        if not isinstance(value, dict)
    ]
    for table in ("lanes", "colours", "checkpoints"):
        lines.append(f"[{table}]")
        lines += [f"{key} = {_toml_value(value)}" for key, value in board[table].items()]
    (folder / "board.toml").write_text("\n".join(lines) + "\n")
    for deck, file in (("low_tide", "low_tide.toml"), ("high_tide", "high_tide.toml")):
        meta = data["_deck_meta"][deck]
        out = [f"{key} = {_toml_value(value)}" for key, value in meta.items()]
        for name, card in data["decks"][deck].items():
            out.append(f"[cards.{name}]")
            out += [f"{key} = {_toml_value(value)}" for key, value in card.items()]
        (folder / file).write_text("\n".join(out) + "\n")
    return folder
