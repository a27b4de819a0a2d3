"""``splash ladder`` with the ``ppo`` bot where the extra ``rl`` is missing: one clear line."""

from __future__ import annotations

import sys
from collections.abc import Callable

import pytest
from typer.testing import Result


def test_the_ladder_refuses_ppo_without_the_extra_in_a_line(
    splash: Callable[..., Result], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("sb3_contrib", "torch"):
        monkeypatch.setitem(sys.modules, name, None)
    result = splash("ladder", "bash", "--bots", "ppo:path=policy.zip,greedy", "--games", "2")
    assert result.exit_code != 0
    assert "optional extra rl" in result.output
    assert "Traceback" not in result.output
