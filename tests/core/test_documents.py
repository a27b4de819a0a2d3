"""Format tags, settings assignments, records."""

from __future__ import annotations

import pytest

from splash.core import DocumentError, GameRecord, OptionError, UnsupportedFormatError
from splash.core.documents import Field, check_format, format_tag, parse_json
from splash.core.i18n import message
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


def test_a_field_names_its_path_and_value() -> None:
    doc = {"tower": [{"piece": "red-cube", "support": 5}], "drops": [0, True]}
    root = Field.root(doc)
    assert root["tower"][0]["piece"].as_str() == "red-cube"
    with pytest.raises(DocumentError, match=r"tower\[0\]\.support must be a string, not 5") as info:
        root["tower"][0]["support"].as_str()
    assert (info.value.path, info.value.value) == ("tower[0].support", 5)
    with pytest.raises(DocumentError, match=r"drops\[1\] must be an integer, not True"):
        root["drops"][1].as_int()
    with pytest.raises(DocumentError, match=r"tower\[1\] is missing"):
        root["tower"][1]
    with pytest.raises(DocumentError, match="phase is missing"):
        root["phase"]
    with pytest.raises(DocumentError, match="document must be an object"):
        Field.root([1]).as_object()
    assert root.get("phase", "give").as_str() == "give"


@pytest.mark.parametrize("bad", [1.5e400, float("nan"), "3", None, False])
def test_a_number_field_is_finite_and_numeric(bad: object) -> None:
    with pytest.raises(DocumentError, match="height must be a finite number"):
        Field.root({"height": bad})["height"].as_float()


def test_choices_and_ranges() -> None:
    root = Field.root({"phase": "dance", "seat": 9})
    with pytest.raises(DocumentError, match="phase: 'dance' is not one of give, place"):
        root["phase"].one_of(("give", "place"))
    with pytest.raises(DocumentError, match="seat: 9 is not between 0 and 3"):
        root["seat"].int_in(0, 3)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{", "is not JSON"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ("9" * 5_000, "number that cannot be read"),
    ],
)
def test_parse_json_refuses_with_a_document_error(text: str, expected: str) -> None:
    with pytest.raises(DocumentError, match=expected):
        parse_json(text, what=message("the file"))


def test_a_record_with_a_bad_field_names_it() -> None:
    with pytest.raises(DocumentError, match="meta must be an object"):
        GameRecord.from_json(
            {"format": "splash/record/1", "game": "bash", "config": {}, "actions": [], "meta": 3}
        )
    record = GameRecord.from_json(
        {
            "format": "splash/record/1",
            "game": "bash",
            "config": BashGame().config(),
            "actions": ["x"],
        }
    )
    with pytest.raises(DocumentError, match=r"actions\[0\] must be an object"):
        record.replay(BashGame())
