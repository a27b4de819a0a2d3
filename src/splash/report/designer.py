"""The designer metrics section of the report (Ludii's names and definitions) and the
duration section: :func:`metrics_section`, :func:`duration_section`."""

from __future__ import annotations

import numpy as np
import pandas as pd

from splash.core.i18n import Message, message
from splash.report import metrics, plots
from splash.report.games import REPORTED_GAMES
from splash.report.html import Page, Section, format_number
from splash.report.outcomes import player_names
from splash.report.results import Results

IDEAL_MIN, IDEAL_MAX = 0.0, 1000.0
"""IdealDuration's bounds (Ludii's defaults)."""

Array = np.ndarray


def utility_matrix(results: Results) -> np.ndarray:
    """``u``: the (games, players) utilities from the winning team of each game."""
    teams = results.team_seats()
    rows = []
    for team in results.frame["winner_team"]:
        winners = () if pd.isna(team) else teams[int(team)]
        rows.append(metrics.utilities(results.seats, winners))
    return np.asarray(rows, dtype=np.float64).reshape(len(rows), results.seats)


def _column(results: Results, name: str) -> np.ndarray | None:
    frame = results.frame
    if name not in frame.columns or frame[name].isna().any():
        return None
    return np.asarray(frame[name], dtype=np.float64)


def _first_player_utilities(results: Results, u: np.ndarray) -> np.ndarray:
    first = REPORTED_GAMES[results.game].first_player(results)
    return np.concatenate([u[:, first : first + 1], np.delete(u, first, axis=1)], axis=1)


def outcome_metrics(results: Results) -> dict[str, float]:
    """AdvantageP1, Balance, Completion, Drawishness, Timeouts and OutcomeUniformity."""
    u = utility_matrix(results)
    capped = np.asarray(results.frame["turn_cap"].fillna(False), dtype=bool)
    winner = np.asarray(results.frame["winner_team"].notna(), dtype=bool)
    return {
        "AdvantageP1": metrics.advantage_p1(_first_player_utilities(results, u)),
        "Balance": metrics.balance(u),
        "Completion": metrics.completion(winner),
        "Drawishness": metrics.drawishness(u, capped),
        "Timeouts": metrics.timeouts(capped),
        "OutcomeUniformity": metrics.outcome_uniformity(u),
    }


def duration_metrics(results: Results) -> dict[str, float]:
    """DurationTurns, DurationMoves, DurationActions and IdealDuration (``nan`` for those
    that need the ``moves`` and ``move_turns`` columns of a file without them)."""
    turns = _column(results, "move_turns")
    moves = _column(results, "moves")
    actions = _column(results, "actions")
    nan = float("nan")
    return {
        "DurationTurns": float(turns.mean()) if turns is not None else nan,
        "DurationMoves": float(moves.mean()) if moves is not None else nan,
        "DurationActions": float(actions.mean()) if actions is not None else nan,
        "IdealDuration": metrics.ideal_duration(turns, IDEAL_MIN, IDEAL_MAX)
        if turns is not None
        else nan,
    }


METRIC_INFO: dict[str, tuple[str, Message]] = {
    "AdvantageP1": ("[0, 1]", message("fair ≈ 0.5")),
    "Balance": ("[0, 1]", message("higher is better")),
    "Completion": ("[0, 1]", message("higher is better")),
    "Drawishness": ("[0, 1]", message("lower is better")),
    "Timeouts": ("[0, 1]", message("lower is better")),
    "OutcomeUniformity": ("≈[0, 1]", message("high: predictable outcomes")),
    "DurationTurns": ("[0, ∞)", message("no direction")),
    "DurationMoves": ("[0, ∞)", message("no direction")),
    "DurationActions": ("[0, ∞)", message("no direction")),
    "IdealDuration": ("[0, 1]", message("higher is better")),
    "LeadChange": ("[0, 1]", message("higher: more swaps of the lead")),
    "Stability": ("[0, n]", message("higher: less stable")),
    "DecisivenessThreshold": ("[-1, 1]", message("no direction")),
    "DecisivenessMoves": ("[0, 1]", message("low: the winner was clear early")),
    "DramaAverage": ("[0, 2]", message("higher: the winner trailed more")),
    "DramaMedian": ("[0, 2]", message("higher: the winner trailed more")),
    "DramaMax": ("[0, 2]", message("higher: the winner trailed more")),
    "DramaVariance": ("[0, 1]", message("no direction")),
    "DramaChangeLineBestFit": ("(-∞, ∞)", message("per move; no direction")),
}
"""The range and direction of each metric, as the report shows them."""


def metric_definitions(game: str) -> list[tuple[str, Message]]:
    """The definition of every metric, for the page's definition list."""
    return [
        (
            "u_p, w_p, W",
            message(
                "Ranks: 1 is best; tied players share the average rank (the winners share the "
                "top ranks, the others the ranks below). Utility u_p = 1 - 2(rank_p - 1)/(n - 1), "
                "in [-1, 1]; partial win w_p = (u_p + 1)/2. W is the set of players whose final "
                "rank is top: the winners of the game (every player when nobody won). Ludii's "
                "code takes W from a freshly started game, where every player ties; the report "
                "implements the documented intent, the final winners."
            ),
        ),
        (
            "AdvantageP1",
            message("(1/N)·Σ w_1: the mean partial win of the player who moves first."),
        ),
        (
            "Balance",
            message(
                "r_p = (1/N)·Σ w_p; Balance = 1 - max over pairs p<q of |r_p - r_q|. Computed "
                "with real numbers, as documented (Ludii's code adds into integers, so only sole "
                "outright wins count)."
            ),
        ),
        ("Completion", message("The share of games with a winner.")),
        (
            "Drawishness",
            message(
                "The share of games that end with u_p = 0 for every player, games that hit the "
                "turn cap not counted, as Ludii's comment says (its code counts them)."
            ),
        ),
        ("Timeouts", message("The share of games ended by the turn cap.")),
        (
            "OutcomeUniformity",
            message(
                "1 - (1/n)·Σ_p Var(u_p), the sample variance over games (divisor N - 1): near 1 "
                "when outcomes are predictable, near 0 for a fair, decisive two-player game."
            ),
        ),
        (
            "DurationTurns",
            message(
                "The mean number of turns, a turn being a run of consecutive moves by the same "
                "player (Ludii counts a turn at each change of mover)."
            ),
        ),
        ("DurationMoves", message("The mean number of moves T after set-up.")),
        (
            "DurationActions",
            message("The mean number of atomic actions: every action, chance outcomes included."),
        ),
        (
            "IdealDuration",
            message(
                "Each game scores t/min if t < min, 1 - min(1, (t - max)/max) if t > max, 1 "
                "otherwise, t its turns (as in DurationTurns); the mean over games. min = {low}, "
                "max = {high} (Ludii's defaults).",
                low=format_number(IDEAL_MIN),
                high=format_number(IDEAL_MAX),
            ),
        ),
        (
            "LeadChange",
            message(
                "L_i = the set of players with the highest evaluation at s_i (exact ties); "
                "#{{i < T : L_i ≠ L_(i-1)}}/T with L_(-1) = ∅, so the first state counts; the mean "
                "over games."
            ),
        ),
        (
            "Stability",
            message(
                "Σ_p of the population variance of v_p over s_0 … s_(T-1); the mean over games. "
                "Ludii declares the range [0, 1], the real bound is n."
            ),
        ),
        (
            "DecisivenessThreshold",
            message(
                "θ = the highest evaluation of any player not in W over s_0 … s_(T-1), starting "
                "at -1; the mean over games."
            ),
        ),
        (
            "DecisivenessMoves",
            message(
                "i*/T, i* the first i at which some winner's evaluation exceeds θ (T if none); "
                "a real division, as documented (Ludii's code divides integers, so each game "
                "scores 0 or 1); the mean over games."
            ),
        ),
        (
            "Drama",
            message(
                "d_i = the mean over w in W of (max_q v_q(s_i) - v_w(s_i)) over s_0 … s_(T-1); "
                "each game's sequence is reduced by an aggregator, then averaged over games: "
                "Average, Median, Max (starting at 0), Variance (population) and "
                "ChangeLineBestFit (the slope of the least-squares line of d_i against i)."
            ),
        ),
        ("v_p", REPORTED_GAMES[game].evaluation),
    ]


def _rows(values: dict[str, float]) -> list[list[str | float | None]]:
    rows: list[list[str | float | None]] = []
    for name, value in values.items():
        span, direction = METRIC_INFO[name]
        rows.append([name, value if np.isfinite(value) else None, span, str(direction)])
    return rows


def metrics_section(page: Page, results: Results) -> None:
    """The Ludii metrics in a table, their definitions, and the per-player partial wins."""
    section = page.section(message("Designer metrics"), anchor="metrics")
    players = REPORTED_GAMES[results.game].players
    section.paragraph(
        message(
            "The metrics Ludii's designers use, computed as its metric notes define them; the "
            "players are the {players}. Each metric is defined below.",
            players=players,
        )
    )
    values = {**outcome_metrics(results), **duration_metrics(results)}
    traced = results.has_traces
    per_game: list[dict[str, float]] = []
    if traced:
        per_game = per_game_trace_metrics(results)
        values.update(
            {key: float(np.mean([g[key] for g in per_game])) for key in per_game[0]}
            if per_game
            else {}
        )
    columns = [message("metric"), message("value"), message("range"), message("direction")]
    section.table(columns, _rows(values))
    section.paragraph(
        message(
            "Balance is the largest gap among {pairs} pairs of mean partial wins, each known to "
            "about ±{error} (one standard error) from {games} games: noise alone lowers it by a "
            "few times that.",
            pairs=results.seats * (results.seats - 1) // 2,
            error=format_number(0.5 / np.sqrt(max(1, results.games)), 2),
            games=results.games,
        ),
        note=True,
    )
    if not traced:
        section.paragraph(
            message(
                "The state-evaluation metrics (LeadChange, Stability, DecisivenessThreshold, "
                "DecisivenessMoves, Drama) are unavailable: the results file has no evaluation "
                "traces (it was written by an older version of splash simulate). Simulate "
                "again to get them."
            )
        )
    if not np.isfinite(values["DurationMoves"]):
        section.paragraph(
            message(
                "DurationTurns, DurationMoves and IdealDuration need the moves columns of a newer results file."
            ),
            note=True,
        )
    u = utility_matrix(results)
    names = player_names(results)
    section.table(
        [message("player"), message("mean partial win r_p"), message("mean utility")],
        [
            [name, float(r), float(m)]
            for name, r, m in zip(names, metrics.partial_wins(u), u.mean(axis=0), strict=True)
        ],
        caption=message("Partial wins per player (Balance compares them)."),
    )
    if traced:
        _example_trace(section, results, names)
    if per_game:
        shown = ("LeadChange", "DecisivenessMoves", "DramaAverage")
        section.figure(
            plots.histograms(
                {key: [g[key] for g in per_game] for key in shown}, ylabel=str(message("games"))
            ),
            message("LeadChange, DecisivenessMoves and DramaAverage game by game."),
        )
    section.definitions(metric_definitions(results.game))


def per_game_trace_metrics(results: Results) -> list[dict[str, float]]:
    """The state-evaluation metrics of every game with a move, ``W`` from its last state."""
    return [
        metrics.trace_metrics(trace, metrics.top_players(trace[-1].tolist()))
        for trace in results.traces()
        if len(trace) > 1
    ]


def _example_trace(section: Section, results: Results, names: list[str]) -> None:
    traces = results.traces()
    lengths = np.asarray([len(t) for t in traces])
    if not lengths.size or lengths.max() < 2:
        return
    index = int(np.argsort(lengths)[len(lengths) // 2])
    seed = int(results.frame["seed"].iloc[index])
    section.figure(
        plots.trace_lines(
            traces[index],
            names,
            xlabel=str(message("state s_i")),
            ylabel=str(message("evaluation v")),
        ),
        message(
            "The evaluation of every player along one game of median length (seed {seed}); the "
            "last point is the final utility.",
            seed=seed,
        ),
    )


def duration_section(page: Page, results: Results) -> None:
    """The game's length in its own turns: mean, spread, histogram."""
    section = page.section(message("Duration"), anchor="duration")
    turns = np.asarray(results.frame["turns"], dtype=np.float64)
    unit = REPORTED_GAMES[results.game].turns
    spread = float(turns.std(ddof=1)) if len(turns) > 1 else 0.0
    quartiles = np.percentile(turns, [25, 50, 75])
    section.table(
        [message("measure"), message("value")],
        [
            [str(message("mean {unit}", unit=unit)), float(turns.mean())],
            [str(message("standard deviation")), spread],
            [str(message("minimum")), float(turns.min())],
            [str(message("quartiles")), " / ".join(format_number(float(q)) for q in quartiles)],
            [str(message("maximum")), float(turns.max())],
        ],
    )
    section.figure(
        plots.histogram(
            turns.tolist(),
            xlabel=str(unit),
            ylabel=str(message("games")),
            mean_label=str(message("mean")),
        ),
        message("Game length in {unit}.", unit=unit),
    )
