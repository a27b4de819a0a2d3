"""The Arrow schema of a spec's results: its columns (:meth:`GameSpec.columns
<splash.sim.runner.GameSpec.columns>`) and, in its metadata under ``splash``, the document of
the run (:func:`run_document`).  Both engines build their tables with it: the reference
engine's records (:mod:`splash.sim.store`) and the compiled core's columns
(:mod:`splash.sim.fast_engine`).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from splash.core.documents import format_tag
from splash.sim.counters import ColumnType

if TYPE_CHECKING:
    from splash.sim.runner import GameSpec

FORMAT_KIND = "sim-results"
META_KEY = b"splash"

_TYPES: dict[ColumnType, Any] = {
    "int64": pa.int64(),
    "string": pa.string(),
    "bool": pa.bool_(),
    "trace": pa.list_(pa.list_(pa.float32())),
}


def run_document(spec: GameSpec) -> dict[str, Any]:
    """The metadata document of a results file of ``spec``."""
    doc: dict[str, Any] = {
        "format": format_tag(FORMAT_KIND, 1),
        "game": spec.game,
        "options": spec.options,
        "bots": list(spec.bots),
        "engine": spec.engine,
    }
    if spec.data:
        doc["data"] = spec.data
    return doc


def arrow_schema(spec: GameSpec) -> Any:
    """The Parquet schema of the results of ``spec`` (with the run's metadata)."""
    fields = [pa.field(name, _TYPES[kind]) for name, kind in spec.columns().items()]
    return pa.schema(fields, metadata={META_KEY: json.dumps(run_document(spec)).encode()})
