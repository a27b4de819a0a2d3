"""Format tags, settings assignments, records."""

from __future__ import annotations

import pytest

from splash.core import DocumentError, GameRecord, OptionError, UnsupportedFormatError
from splash.core.documents import check_format, format_tag
from splash.core.settings import apply_assignments, parse_assignment, parse_value
from splash.games.bash import BashGame


def test_format_tags() -> None:
    assert format_tag("bash", 1) == "splash/bash/1"
    assert check_format({"format": "splash/bash/1"}, "bash") == 1
    for bad in ({"format": "splash/bash/2"}, {"format": "splash/tower/1"}, {"format": 3}, {}):
        with pytest.raises(UnsupportedFormatError):
            check_format(bad, "bash")
    with pytest.raises(DocumentError):
        check_format([1, 2], "bash")


def test_values_are_read_as_toml() -> None:
    assert parse_value("36") == 36
    assert parse_value("0.5") == 0.5
    assert parse_value("true") is True
    assert parse_value("[0, 0.5]") == [0, 0.5]
    assert parse_value("permanent") == "permanent"
    assert parse_assignment("board.lanes.outer=36") == ("board.lanes.outer", 36)
    for bad in ("board.lanes.outer", "=3", "a..b=1"):
        with pytest.raises(OptionError):
            parse_assignment(bad)


def test_assignments_into_a_tree() -> None:
    tree = {"a": {"b": 1, "card": {"count": 2, "timing": "any"}}}
    assert apply_assignments(tree, [("a.b", 5)], leaf_key="count")["a"]["b"] == 5
    assert apply_assignments(tree, [("a.card", 0)], leaf_key="count")["a"]["card"]["count"] == 0
    assert tree["a"]["b"] == 1  # the input is not changed
    with pytest.raises(OptionError):
        apply_assignments(tree, [("a.c", 1)])
    with pytest.raises(OptionError):
        apply_assignments(tree, [("a.b.c", 1)])
    with pytest.raises(OptionError):
        apply_assignments(tree, [("a.card", 0)])


def test_record_documents_are_checked() -> None:
    game = BashGame()
    record = GameRecord(
        game="bash", config=game.config(), actions=[{"kind": "start_lane", "lane": "outer"}]
    )
    assert GameRecord.from_json(record.to_json()).replay(game).history[0].kind == "start_lane"
    with pytest.raises(UnsupportedFormatError):
        GameRecord.from_json({**record.to_json(), "format": "splash/record/9"})
    with pytest.raises(DocumentError):
        GameRecord.from_json({**record.to_json(), "actions": "none"})
    broken = GameRecord(game="bash", config=game.config(), actions=[{"kind": "roll", "face": 3}])
    with pytest.raises(DocumentError) as error:
        broken.replay(game)
    assert "action 0" in str(error.value)
