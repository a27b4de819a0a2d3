"""``splash tune``: the metric list, a small search end to end, and refused input."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

from splash.report.metric_ids import METRICS

BASE = ["bash", "--target", "balance>=0.9", "--vary", "board.lanes.outer=8..16"]


def test_the_metric_list_names_every_metric(splash: Callable[..., Result]) -> None:
    result = splash("tune", "--list-metrics")
    assert result.exit_code == 0, result.output
    for metric_id in [*METRICS, "team_win_rate_<k>"]:
        assert metric_id in result.output
    text = " ".join(result.output.replace("│", " ").split())
    assert "The share of games won by team k (from 0" in text
    assert "won by team 0" not in text


@pytest.mark.parametrize(
    ("args", "says"),
    [
        ([], "give the game"),
        (["bash", "--vary", "board.lanes.outer=8..16"], "give at least one --target"),
        (["bash", "--target", "fun<=1", "--vary", "board.lanes.outer=8..16"], "no such metric"),
        (["bash", "--target", "balance>=0.9", "--vary", "board.lanes.outer=9..1"], "not below"),
        (
            [
                "bash",
                "--target",
                "balance>=0.9",
                "--vary",
                "board.lanes.outer=8..16",
                "--budget",
                "5",
            ],
            "too small",
        ),
        (
            [*BASE, "--skills", "random,greedy", "--bots", "random"],
            "give --bots or --skills, not both",
        ),
        (
            [*BASE, "--skills", "random,greedy", "--games", "10,20,30"],
            "one per level (2 levels)",
        ),
        (
            [*BASE, "--games", "ten"],
            "expected N or N,N,...",
        ),
        (
            [
                "bash",
                "--target",
                "duration_turns@ismcts=1..2",
                "--vary",
                "board.lanes.outer=8..16",
                "--skills",
                "random,greedy",
            ],
            "no level plays ismcts",
        ),
    ],
)
def test_bad_input_exits_2_with_a_clear_message(
    splash: Callable[..., Result], args: list[str], says: str
) -> None:
    result = splash("tune", *args)
    assert result.exit_code == 2, result.output
    assert says in result.output
    assert "Traceback" not in result.output


@pytest.mark.slow
def test_a_small_search_writes_its_folder_and_report(
    splash: Callable[..., Result], tmp_path: Path
) -> None:
    args = ["tune", "bash", "--target", "|first_seat_advantage|<=0.1"]
    args += ["--target", "duration_turns=60..90", "--vary", "board.lanes.outer=8..16"]
    args += ["--set", "options.turn_cap=120", "--set", "board.lanes.centre=8"]
    args += ["--set", "board.lanes.high_tide=8", "--bots", "random", "--budget", "28"]
    args += ["--games", "6", "--finalists", "1", "--final-games", "4", "--workers", "1"]
    args += ["--engine", "reference", "-o", "tune.html"]
    result = splash(*args)
    assert result.exit_code == 0, result.output
    assert "Recommended: board.lanes.outer=" in result.output
    assert re.search(r"Simulating \S+ (\d+)/\1 ", result.output)  # the games played
    assert (tmp_path / "TUNE" / "tune.json").is_file()
    assert "Recommended settings" in (tmp_path / "tune.html").read_text(encoding="utf-8")
    again = splash(*args)
    assert again.exit_code == 0, again.output
    assert again.output.count("Recommended: ") == 1


def test_a_search_at_two_levels_ends_with_a_sentence_per_finalist(
    splash: Callable[..., Result], tmp_path: Path
) -> None:
    args = ["tune", "bash", "--target", "|first_seat_advantage|<=0.1"]
    args += ["--target", "duration_turns@greedy=40..120"]
    args += [
        "--vary",
        "options.turn_order=seat,rotate,snake",
        "--vary",
        "options.start_stagger=0..2",
    ]
    args += ["--set", "options.turn_cap=120", "--set", "board.lanes.centre=8"]
    args += ["--set", "board.lanes.high_tide=8", "--set", "board.lanes.outer=9"]
    args += ["--skills", "random,greedy", "--games", "9", "--rungs", "2", "--budget", "200"]
    args += ["--finalists", "2", "--final-games", "8,6", "--workers", "1", "-o", "tune.html"]
    result = splash(*args)
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert sum(": met: " in line or ": not met: " in line for line in lines) >= 2
    assert lines[-2].startswith("The report is in")
    document = (tmp_path / "TUNE" / "tune.json").read_text(encoding="utf-8")
    assert '"skills": [' in document and '"engines": [' in document
    assert "Fairness at every level" in (tmp_path / "tune.html").read_text(encoding="utf-8")
