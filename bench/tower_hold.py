"""Measure an idea for the slow tail of the quick ruling: hold the low pieces fixed.

The pieces of the tower whose centre of mass lies more than ``--depth`` metres below the
placed piece's target are *held*: they collide with nothing but the free pieces (no
contacts among themselves or with the table), and after every time step they are put back
where they were, at rest, so that they act as fixed obstacles.  With ``--heavy F`` their
mass and inertia are multiplied by ``F`` (``mj_setConst`` once per ruling) and their weight
is cancelled by an applied force, so that the pieces resting on them are not shaken by
their one-step sag (without it the held variant disagreed on 40 of 109 placements).  When a held piece is
touched by a free piece moving faster than ``--release-speed`` (the collapse reaching
it), the ruling is run again with every piece free.

On the corpus placements on 25-30 pieces (``tower_corpus.py``) this bench rules each one
with the quick ruling and with the held variant, on one core, and prints per kind (stood,
fell) the median and 95th-percentile times, how often the held variant agreed with the
stored 3-s outcome (T11's sets), and how often it was released.  It is a measurement, not
the default ruling.  Its last line is
``hold_median_ratio=M hold_p95_ratio=P agreement=A/N released=R``: the quick ruling's
median (p95) time over the held variant's, over the same placements.

    python bench/tower_hold.py [--depth 0.08] [--release-speed 0.01] [--heavy 1e4] [--limit 0]
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Mapping  # noqa: E402

import mujoco  # noqa: E402
import numpy as np  # noqa: E402

from splash.games.tower.catalogue import load_catalogue  # noqa: E402
from splash.physics.model import TABLE_SLOT, TowerModel  # noqa: E402
from splash.physics.outcome import RulingOutcome  # noqa: E402
from splash.physics.poses import Pose  # noqa: E402
from splash.physics.ruling import RulingSettings, rule  # noqa: E402
from tower_corpus import CORPUS, Record, load, same_sets  # noqa: E402

FREE_TYPE, HELD_TYPE = 1, 2
"""Collision bits: a free piece collides with everything, a held one only with free ones."""


class ReleasedError(Exception):
    """A held piece was reached by the collapse."""


class HeldModel(TowerModel):
    """A tower model in which the pieces of :attr:`held` are kept fixed (module docs)."""

    held: frozenset[str] = frozenset()
    release_speed: float = 0.01
    heavy: float = 1.0
    """The held pieces' mass and inertia are multiplied by this, their weight cancelled."""

    def reset(self, poses: Mapping[str, Pose]) -> None:
        super().reset(poses)
        slots = np.array(sorted(self.slot[p] for p in self.held if p in poses), dtype=np.intp)
        self._held = slots
        geoms = np.isin(self.geom_slot, slots)
        on = np.asarray(self.model.geom_contype) > 0
        self.model.geom_contype[:] = np.where(on, np.where(geoms, HELD_TYPE, FREE_TYPE), 0)
        self.model.geom_conaffinity[:] = np.where(on, np.where(geoms, 0, FREE_TYPE | HELD_TYPE), 0)
        self._qpos = np.array(self.data.qpos.reshape(-1, 7)[slots])
        flags = np.zeros(len(self.piece_ids) + 2, dtype=bool)
        flags[slots] = True
        self._flags = flags
        if self.heavy > 1.0:
            if not hasattr(self, "_mass"):
                self._mass = np.array(self.model.body_mass)
                self._inertia = np.array(self.model.body_inertia)
            bodies = self.body_ids[slots]
            self.model.body_mass[:] = self._mass
            self.model.body_inertia[:] = self._inertia
            self.model.body_mass[bodies] *= self.heavy
            self.model.body_inertia[bodies] *= self.heavy
            state = np.array(self.data.qpos), np.array(self.data.qvel)
            mujoco.mj_setConst(self.model, self.data)
            mujoco.mj_resetData(self.model, self.data)
            self.data.qpos[:], self.data.qvel[:] = state
            self.data.xfrc_applied[:] = 0.0
            self.data.xfrc_applied[bodies, 2] = (
                -self.model.body_mass[bodies] * self.model.opt.gravity[2]
            )
            mujoco.mj_forward(self.model, self.data)

    def step(self, steps: int) -> None:
        slots = self._held
        if slots.size == 0:
            super().step(steps)
            return
        qpos = self.data.qpos.reshape(-1, 7)
        qvel = self.data.qvel.reshape(-1, 6)
        for _ in range(steps):
            mujoco.mj_step(self.model, self.data)
            qpos[slots] = self._qpos
            qvel[slots] = 0.0
        mujoco.mj_kinematics(self.model, self.data)
        pairs, _ = self.contacts()
        if len(pairs):
            first, second = pairs[:, 0], pairs[:, 1]
            touched = (self._flags[first] & (second != TABLE_SLOT)) | (
                self._flags[second] & (first != TABLE_SLOT)
            )
            other = np.where(self._flags[first], second, first)[touched]
            if other.size and (self.speeds(other, 0.03) > self.release_speed).any():
                raise ReleasedError


def held_pieces(record: Record, depth: float) -> frozenset[str]:
    """The tower's pieces more than ``depth`` below the placement's target."""
    heights = {rest.piece: rest.pose.position[2] for rest in record.tower}
    top = heights.get(record.placement.target, 0.0)
    return frozenset(p for p, z in heights.items() if z < top - depth)


def held_rule(
    model: HeldModel, full: TowerModel, record: Record, depth: float
) -> tuple[RulingOutcome, bool]:
    """The held variant's outcome, and whether it was released."""
    model.held = held_pieces(record, depth)
    try:
        return rule(model, record.tower, record.placement, record.tremor), False
    except ReleasedError:
        return rule(full, record.tower, record.placement, record.tremor), True


def main() -> None:
    """Run the measurement and print its figures, the summary line last."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--depth", type=float, default=0.08, help="metres below the target")
    parser.add_argument("--release-speed", type=float, default=0.01, help="m/s")
    parser.add_argument("--heavy", type=float, default=1.0, help="held pieces' mass factor")
    parser.add_argument("--limit", type=int, default=0, help="placements (0: all on 25-30)")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    catalogue = load_catalogue()
    full = TowerModel(catalogue)
    held = HeldModel(catalogue)
    held.release_speed = args.release_speed
    held.heavy = args.heavy
    band = [r for r in load(CORPUS) if 25 <= r.height <= 30]
    if args.limit:
        band = band[: args.limit]
    quick_times: list[float] = []
    held_times: list[float] = []
    agree = released = 0
    for record in band:
        rule(full, record.tower, record.placement, record.tremor, RulingSettings())
        start = time.perf_counter()
        outcome, was_released = held_rule(held, full, record, args.depth)
        held_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        rule(full, record.tower, record.placement, record.tremor, RulingSettings())
        quick_times.append(time.perf_counter() - start)
        agree += same_sets(record, outcome)
        released += was_released
    for kind in ("stood", "fell"):
        idx = [i for i, r in enumerate(band) if (r.result == "stood") == (kind == "stood")]
        if not idx:
            continue
        q = [quick_times[i] * 1000 for i in idx]
        h = [held_times[i] * 1000 for i in idx]
        print(
            f"{kind}: {len(idx)} placements, quick median {statistics.median(q):.1f} ms "
            f"p95 {np.percentile(q, 95):.1f} ms; held median {statistics.median(h):.1f} ms "
            f"p95 {np.percentile(h, 95):.1f} ms"
        )
    ratio = statistics.median(quick_times) / statistics.median(held_times)
    tail = float(np.percentile(quick_times, 95) / np.percentile(held_times, 95))
    print(
        f"hold_median_ratio={ratio:.2f} hold_p95_ratio={tail:.2f} "
        f"agreement={agree}/{len(band)} released={released}"
    )


if __name__ == "__main__":
    main()
