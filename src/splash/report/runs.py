"""The files a report reads: :func:`runs_section`, and what their data files change from the
shipped ones (:func:`data_changes`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from splash.core.i18n import Message, message
from splash.report.html import Cell, Page
from splash.report.results import Results, Run

SHOWN_CHANGES = 12
"""The most changes of the data files listed for one file."""


def data_changes(shipped: Any, recorded: Any, path: str = "") -> list[str]:
    """What ``recorded`` changes from ``shipped`` (two JSON trees), one text per change:
    ``decks.high_tide.tsunami: added``, ``board.lanes.outer: 40 → 44``; an entry added or
    removed is named once, not leaf by leaf.  Keys starting with ``_`` are left out."""
    if isinstance(shipped, Mapping) and isinstance(recorded, Mapping):
        found: list[str] = []
        for key in sorted(set(shipped) | set(recorded)):
            if str(key).startswith("_"):
                continue
            name = f"{path}.{key}" if path else str(key)
            if key not in shipped:
                found.append(str(message("{entry}: added", entry=name)))
            elif key not in recorded:
                found.append(str(message("{entry}: removed", entry=name)))
            else:
                found += data_changes(shipped[key], recorded[key], name)
        return found
    if shipped == recorded:
        return []
    return [f"{path}: {json.dumps(shipped)} \u2192 {json.dumps(recorded)}"]


def data_text(run: Run, shipped: str | None) -> str:
    """How a file's data files are described: the shipped ones, or what they change."""
    if run.data is None or run.data == shipped:
        what: Message = (
            message("the shipped files, with --data")
            if run.given_data
            else message("the shipped files")
        )
        return str(what)
    changes = data_changes(json.loads(shipped or "{}"), json.loads(run.data))
    listed = "; ".join(changes[:SHOWN_CHANGES])
    if len(changes) > SHOWN_CHANGES:
        listed += " " + str(message("(and {more} more)", more=len(changes) - SHOWN_CHANGES))
    source = message("--data") if run.given_data else message("recorded")
    return str(
        message(
            "other files ({source}): {changes}",
            source=source,
            changes=listed or str(message("the same values")),
        )
    )


def run_row(run: Run, shipped: str | None, *, with_data: bool = True) -> list[Cell]:
    """A file's row: its name, games, options, bots and (``with_data``) its data files
    against the ``shipped`` ones."""
    options = ", ".join(
        f"{k}={json.dumps(v)}" for k, v in sorted(json.loads(run.options).items())
    ) or str(message("defaults"))
    row: list[Cell] = [run.path.name, run.games, options, ", ".join(run.bots)]
    if with_data:
        row.append(data_text(run, shipped))
    return row


def runs_section(page: Page, results: Results) -> None:
    """Each file with its games, options, bots and data files."""
    from splash.sim.runner import shipped_data

    shipped = shipped_data(results.game)
    section = page.section(message("Games read"), anchor="runs")
    columns = [message("file"), message("games"), message("options (--set)"), message("bots")]
    with_data = shipped is not None or any(run.data for run in results.runs)
    section.table(
        [*columns, *([message("data files")] if with_data else [])],
        [run_row(run, shipped, with_data=with_data) for run in results.runs],
    )
    if len(results.runs) > 1:
        section.paragraph(
            message(
                "The games of every file are pooled in the sections below; only the skill "
                "curve tells the settings apart."
            ),
            note=True,
        )
    if len({run.data for run in results.runs}) > 1:
        section.paragraph(
            message(
                "The files were played with different data files: the cards shown are those "
                "of the first file."
            ),
            note=True,
        )
