"""Two processes compiling the core cold into one fresh cache do not corrupt it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PLAY = (
    "from splash.sim.fast_engine import fast_table; from splash.sim.runner import GameSpec; "
    "print(fast_table(GameSpec.of('bash'), [11, 12]).column('actions').to_pylist())"
)


@pytest.mark.deep
@pytest.mark.timeout(3600)
def test_concurrent_cold_compiles_leave_a_cache_that_loads(tmp_path: Path) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    both = [
        subprocess.Popen([sys.executable, "-c", PLAY], env=env, stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outputs = [p.communicate(timeout=900)[0] for p in both]
    assert all(p.returncode == 0 for p in both)
    assert any(tmp_path.rglob("*.nbi"))
    again = subprocess.run(
        [sys.executable, "-c", PLAY],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert again.returncode == 0
    assert outputs[0] == outputs[1] == again.stdout
