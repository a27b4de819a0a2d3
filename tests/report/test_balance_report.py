"""The whole report, end to end: games simulated in this process, stored, reported."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from splash.report.balance import balance_report
from splash.report.results import load_results
from splash.sim import GameSpec, run_one
from splash.sim.store import ResultStore

BASH_SECTIONS = ("runs", "wins", "duration", "metrics", "lanes", "incidents", "cards")
TOWER_SECTIONS = ("runs", "wins", "duration", "metrics", "falls", "seats", "won-by", "skill")
METRICS = (
    "AdvantageP1",
    "Balance",
    "Completion",
    "Drawishness",
    "Timeouts",
    "OutcomeUniformity",
    "DurationTurns",
    "DurationMoves",
    "DurationActions",
    "IdealDuration",
    "LeadChange",
    "Stability",
    "DecisivenessThreshold",
    "DecisivenessMoves",
    "DramaAverage",
    "DramaMax",
)


def simulate(path: Path, game: str, settings: list[str], games: int) -> Path:
    spec = GameSpec.of(game, settings, ["random"])
    store = ResultStore(path, spec)
    for seed in range(games):
        store.add(run_one(spec, seed))
    store.finish()
    return path


def assert_self_contained(html: str) -> list[bytes]:
    """No external reference; returns the embedded PNG images."""
    assert "href=" not in html
    sources = re.findall(r'src="([^"]*)"', html)
    assert sources and all(s.startswith("data:image/png;base64,") for s in sources)
    assert "http://" not in html and "https://" not in html
    images = [base64.b64decode(s.split(",", 1)[1]) for s in sources]
    assert all(image.startswith(b"\x89PNG") for image in images)
    return images


@pytest.fixture(scope="module")
def bash_results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("report")
    return simulate(folder / "bash.parquet", "bash", ["options.turn_cap=120"], 16)


def test_a_bash_report_has_every_section_plot_and_metric(bash_results: Path) -> None:
    html = balance_report(load_results([bash_results])).render()
    images = assert_self_contained(html)
    assert len(images) >= 6
    for anchor in BASH_SECTIONS:
        assert f'<section id="{anchor}">' in html, anchor
    for name in METRICS:
        assert f"<td>{name}</td>" in html, name
        assert f"<dt>{name}</dt>" in html or name.startswith("Drama"), name
    assert "<dt>Drama</dt>" in html
    assert "unavailable" not in html
    assert "first seat (team A)" in html
    assert "calm_water" in html and "lifebuoy" in html
    assert "<td>mean team turns</td>" in html
    assert "A turn is one team&#x27;s turn, the winning one included;" in html
    assert "<td>decisions per game (mean), set-up included</td>" in html
    assert "<td>actions per game (mean), chance outcomes included</td>" in html


def test_a_results_file_without_traces_still_gives_a_report(
    bash_results: Path, tmp_path: Path
) -> None:
    table = pq.read_table(bash_results)
    old = table.drop_columns(["chains_t0", "chains_t1", "longest_chain", "moves", "trace", "data"])
    path = tmp_path / "old.parquet"
    pq.write_table(old, path)
    results = load_results([path])
    assert not results.has_traces
    html = balance_report(results).render()
    assert_self_contained(html)
    assert (
        "metrics (LeadChange, Stability, DecisivenessThreshold, DecisivenessMoves, Drama) are unavailable"
        in html
    )
    assert "<td>Balance</td>" in html and "<td>LeadChange</td>" not in html
    assert "Chains are not counted" in html


@pytest.mark.slow
def test_tower_reports_with_a_skill_curve(tmp_path: Path) -> None:
    steady = simulate(tmp_path / "steady.parquet", "tower", ["options.players=2"], 2)
    shaky = simulate(
        tmp_path / "shaky.parquet",
        "tower",
        ["options.players=2", "options.steadiness.position_mm=2.0"],
        1,
    )
    one = balance_report(load_results([steady])).render()
    assert_self_contained(one)
    for anchor in TOWER_SECTIONS:
        assert f'<section id="{anchor}">' in one, anchor
    assert "the curve is a single point" in one
    assert "falls_height" not in one and "10-14" in one
    assert "<td>mean placements</td>" in one and "team turns" not in one
    both = load_results([steady, shaky])
    assert both.games == 3 and both.has_traces
    html = balance_report(both, "Steadiness").render()
    assert "<title>Steadiness</title>" in html
    assert "the curve is a single point" not in html
    assert "<td>2</td><td>1</td><td>0.5</td><td>2</td>" in html  # the shaky seats' row
    traces = both.traces()
    assert all(t.shape[1] == 2 and t.shape[0] >= 2 for t in traces)
