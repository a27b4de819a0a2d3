"""A corpus of Splash! placements on tall towers, each stored with its fixed 3-s outcome.

Random play rarely builds tall towers, so the corpus is grown by a *careful placer*: each
tower takes the 30 catalogue pieces in a seeded random order, every piece on its most
stable face, on the top of the tower, turned at random, aimed so that its centre of mass
comes half-way back over the base's (a careful hand corrects the lean), with a seeded
aiming error (usually small, now and then a slip, more often higher up) and the game's default tremor (TD14).
Every placement is ruled by the fixed 3-s simulation (``long`` mode); the tower goes on
from its outcome while it stands, and a new tower starts after a fall or at 30 pieces.

Each record holds the tower before the placement (recorded poses), the placement, its
tremor and the 3-s outcome: result, standing stacks, pieces left on the table, and a digest
of the whole outcome document (every settled pose), by which ``tower_placement.py`` tells
whether the stored outcomes still match the code.

    python bench/tower_corpus.py --rebuild [--placements 1000] [--seed 0]
    python bench/tower_corpus.py            # summary of the stored corpus
    python bench/tower_corpus.py --pilot    # the same play ruled quickly, to tune the placer
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import multiprocessing
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

import numpy as np

from splash.games.tower.catalogue import load_catalogue
from splash.games.tower.geometry import Transform
from splash.physics.errors import PlacementError
from splash.physics.model import TowerModel
from splash.physics.outcome import RulingOutcome
from splash.physics.placement import Placement, Steadiness, Tremor, check_tower, target_frame
from splash.physics.poses import TABLE, PieceRest
from splash.physics.ruling import RulingSettings, rule

CORPUS = Path(__file__).with_name("data") / "tower_corpus.jsonl.gz"
"""Where the corpus is stored (gzipped JSON lines, one placement a line)."""
FACES = {"cube": "bottom", "beam": "flat", "prism": "triangle", "arch": "feet", "cylinder": "round"}
"""The face each shape is placed on (its most stable one)."""
HAND = Steadiness(position_mm=0.5, angle_deg=1.0, height_mm=0.5)
"""The game's default steadiness (TD14)."""
LONG = RulingSettings(mode="long")
AIM_MM = 1.0
"""The careful placer's usual aiming error (standard deviation, each axis)."""
SLIP_MM = 6.0
SLIP_SHARE = (12, 0.003)
"""Now and then the aim slips by ``SLIP_MM`` (standard deviation): on a tower of ``n``
pieces, in a share ``(n - SLIP_SHARE[0])**2 * SLIP_SHARE[1]`` of placements once ``n`` is
above ``SLIP_SHARE[0]`` (higher up, the hand is less sure)."""


@dataclass(frozen=True)
class Record:
    """One placement of the corpus and its stored 3-s outcome."""

    tower: tuple[PieceRest, ...]
    placement: Placement
    tremor: Tremor
    result: str
    stacks: tuple[tuple[str, ...], ...]
    on_table: tuple[str, ...]
    digest: str

    @property
    def height(self) -> int:
        """The pieces of the tower with the placed one."""
        return len(self.tower) + 1

    def to_json(self) -> dict[str, Any]:
        """One line of the corpus file."""
        return {
            "tower": [rest.to_json() for rest in self.tower],
            "placement": self.placement.to_json(),
            "tremor": self.tremor.to_json(),
            "result": self.result,
            "stacks": [list(stack) for stack in self.stacks],
            "on_table": list(self.on_table),
            "digest": self.digest,
        }

    @staticmethod
    def from_json(doc: dict[str, Any]) -> Record:
        """The inverse of :meth:`to_json`."""
        return Record(
            tower=tuple(PieceRest.from_json(rest) for rest in doc["tower"]),
            placement=Placement.from_json(doc["placement"]),
            tremor=Tremor.from_json(doc["tremor"]),
            result=str(doc["result"]),
            stacks=tuple(tuple(stack) for stack in doc["stacks"]),
            on_table=tuple(doc["on_table"]),
            digest=str(doc["digest"]),
        )


def digest(outcome: RulingOutcome) -> str:
    """A digest of the whole outcome document (bit for bit: every pose as stored), the
    method's name left out."""
    doc = outcome.to_json()
    doc.pop("method", None)
    doc.pop("margin_mm", None)
    text = json.dumps(doc, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def same_sets(record: Record, outcome: RulingOutcome) -> bool:
    """Whether ``outcome`` agrees with the stored one: the same verdict and, after a fall,
    the same pieces left standing (stacks) and on the table (T11)."""
    if outcome.result != record.result:
        return False
    if record.result == "stood":
        return True
    standing = {piece for stack in outcome.stacks for piece in stack}
    stored = {piece for stack in record.stacks for piece in stack}
    return standing == stored and set(outcome.on_table) == set(record.on_table)


def load(path: Path = CORPUS) -> list[Record]:
    """The stored corpus."""
    with gzip.open(path, "rt", encoding="utf-8") as stream:
        return [Record.from_json(json.loads(line)) for line in stream if line.strip()]


def _careful(
    model: TowerModel, tower: list[PieceRest], piece: str, rng: np.random.Generator
) -> Placement:
    """Where the careful placer puts ``piece`` on top of ``tower``."""
    face = FACES[model.catalogue.piece(piece).shape]
    turn = float(rng.uniform(-45.0, 45.0))
    slip = rng.uniform() < max(0, len(tower) - SLIP_SHARE[0]) ** 2 * SLIP_SHARE[1]
    error = rng.normal(0.0, SLIP_MM if slip else AIM_MM, 2) / 1000.0
    if not tower:
        return Placement(piece, face, turn, (float(error[0]), float(error[1])), TABLE)
    rests = check_tower(model.catalogue, tower)
    top: Transform = target_frame(model.catalogue, rests, tower[-1].piece)
    base = np.array(tower[0].pose.position[:2])
    lean = np.array(tower[-1].pose.position[:2]) - base
    aim = top.rotation[:2, :2].T @ (-0.5 * lean)
    offset = aim + error
    return Placement(piece, face, turn, (float(offset[0]), float(offset[1])), tower[-1].piece)


def tower_records(seed: int, index: int, settings: RulingSettings) -> list[Record]:
    """The placements of the corpus's tower ``index`` (its own child seed of ``seed``), up
    to its fall or its 30th piece."""
    model = _model()
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))
    order = [model.catalogue.piece_ids[i] for i in rng.permutation(30)]
    tower: list[PieceRest] = []
    records = []
    for piece in order:
        outcome = None
        for _ in range(5):
            placement = _careful(model, tower, piece, rng)
            tremor = HAND.sample(rng)
            try:
                outcome = rule(model, tower, placement, tremor, settings)
            except PlacementError:
                continue
            break
        if outcome is None:
            break
        records.append(
            Record(
                tuple(tower),
                placement,
                tremor,
                outcome.result,
                outcome.stacks,
                outcome.on_table,
                digest(outcome),
            )
        )
        if outcome.result != "stood":
            break
        tower = list(outcome.tower())
    return records


@lru_cache(maxsize=1)
def _model() -> TowerModel:
    return TowerModel(load_catalogue())


def play(seed: int, placements: int, settings: RulingSettings, jobs: int = 1) -> Iterator[Record]:
    """The corpus's first ``placements`` placements from ``seed``: towers 0, 1, 2, ... in
    order, whatever the number of worker processes ``jobs``."""
    rule_tower = partial(tower_records, seed, settings=settings)
    made = 0
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        for records in pool.imap(rule_tower, range(10_000)):
            for record in records:
                yield record
                made += 1
                if made >= placements:
                    pool.terminate()
                    return


def summary(records: list[Record]) -> str:
    """Counts of the corpus by height band and verdict."""
    lines = [f"{len(records)} placements"]
    for low, high in ((1, 9), (10, 19), (20, 24), (25, 30)):
        band = [r for r in records if low <= r.height <= high]
        results = Counter(r.result for r in band)
        falls = sum(1 for r in band if r.result != "stood")
        share = falls / len(band) if band else 0.0
        lines.append(
            f"  {low:2d}-{high:2d} pieces: {len(band):5d}  "
            + "  ".join(f"{k} {v}" for k, v in sorted(results.items()))
            + f"  (falls {share:.0%})"
        )
    return "\n".join(lines)


def main() -> None:
    """Rebuild the corpus, pilot the placer, or summarise the stored corpus."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rebuild", action="store_true", help="regenerate the stored corpus")
    parser.add_argument("--pilot", action="store_true", help="play with quick rulings only")
    parser.add_argument("--placements", type=int, default=1260)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--output", type=Path, default=CORPUS)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument(
        "--pack", action="store_true", help="store what an unfinished --rebuild has written"
    )
    args = parser.parse_args()
    if not (args.rebuild or args.pilot or args.pack):
        print(summary(load(args.output)))
        return
    if args.pack:
        records = _read_lines(_part(args.output))
    else:
        records = _grow(
            args.seed, args.placements, LONG if args.rebuild else RulingSettings(), args
        )
    print(summary(records))
    if args.rebuild or args.pack:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        with (
            args.output.open("wb") as raw,
            gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as stream,
        ):
            for record in records:
                stream.write((json.dumps(record.to_json()) + "\n").encode())
        print(f"wrote {args.output} ({len(records)} placements)", file=sys.stderr)


def _part(output: Path) -> Path:
    return output.with_name(output.name + ".part")


def _read_lines(path: Path) -> list[Record]:
    with path.open(encoding="utf-8") as stream:
        return [Record.from_json(json.loads(line)) for line in stream if line.strip()]


def _grow(
    seed: int, placements: int, settings: RulingSettings, args: argparse.Namespace
) -> list[Record]:
    """Play the corpus, each record also written as it comes to the ``.part`` file beside
    the output (``--pack`` stores what it holds: the first placements of the same corpus)."""
    start = time.perf_counter()
    records = []
    part = _part(args.output)
    part.parent.mkdir(parents=True, exist_ok=True)
    with part.open("w", encoding="utf-8") as stream:
        for record in play(seed, placements, settings, args.jobs):
            records.append(record)
            stream.write(json.dumps(record.to_json()) + "\n")
            stream.flush()
            if len(records) % 50 == 0:
                print(f"{len(records)} placements, {time.perf_counter() - start:.0f} s", flush=True)
    return records


if __name__ == "__main__":
    main()
