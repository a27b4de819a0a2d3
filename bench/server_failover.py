"""Fail-over of the play server: three ``splash serve --cluster`` processes on one PostgreSQL
database, 60 rooms in play, one process killed with SIGKILL at a random moment.

Each room is a two-team game on the full board (about 320 decisions, a few minutes of
play) with a person-like client (a seeded think time of 100-300 ms) against the
``random`` bot; the bench routes each room's connections as a consistent-hash proxy would
(rendezvous hashing of the room id over the live processes) and reconnects a client after a
lost connection or a ``moved`` message (4409), as the pages do
(:mod:`tests.server.drill`).  After a seeded random 8-20 s it kills a seeded random
process, plays 25 s more, and checks:

- ``rooms``: the rooms in play the killed process owned; ``continued``: those that
  acknowledged an action after the kill (or had ended);
- ``lost_acks``: acknowledged actions, of any room, missing from the database;
- ``takeover_s``: the slowest take-over, from the kill to a room's first acknowledgement;
- ``double_owner``: action indices that two processes logged as committed.

Goals: C = R, L = 0, T <= 10, D = 0.  The database: ``--db`` (a role that may create
databases; the bench works in a new database of its own, dropped at the end), else
``SPLASH_TEST_POSTGRES_URL``.  The last line is exactly

    rooms=R continued=C lost_acks=L takeover_s=T double_owner=D

    .venv/bin/python bench/server_failover.py --db postgresql+psycopg://u:pw@127.0.0.1/db
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

import numpy as np

# The drill lives with the tests that run it: this checkout's tests package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.server.drill import cluster_of, run_drill, scratch_database


def main() -> None:
    """Run the drill once and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=os.environ.get("SPLASH_TEST_POSTGRES_URL"))
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--rooms", type=int, default=60)
    parser.add_argument("--after", type=float, default=25.0, help="seconds played after")
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()
    if not options.db:
        sys.exit("server_failover.py needs PostgreSQL: --db URL or SPLASH_TEST_POSTGRES_URL")
    if options.processes < 2 or options.rooms < 1:
        sys.exit("server_failover.py needs at least 2 processes and 1 room")
    rng = np.random.default_rng(options.seed)
    kill_after = float(rng.uniform(8.0, 20.0))
    victim = int(rng.integers(options.processes))
    with scratch_database(options.db) as url, cluster_of(url, options.processes) as cluster:
        print(
            f"{options.processes} processes, {options.rooms} rooms; killing drill-{victim}"
            f" after {kill_after:.1f} s, then {options.after:.0f} s more",
            flush=True,
        )
        report = asyncio.run(
            run_drill(
                cluster,
                options.rooms,
                seed=options.seed,
                kill_after=kill_after,
                after_kill=options.after,
                think=(0.1, 0.3),
                victim=victim,
                settings=("options.teams=2",),
            )
        )
    print(
        f"{report.total_rooms} rooms, {report.acks} actions acknowledged,"
        f" {report.moved} moved messages"
    )
    print(report.line())


if __name__ == "__main__":
    main()
