"""``splash train bash``: its input refused with a clear line and exit code 2."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from typer.testing import Result


def test_a_broken_agent_file_or_option_is_refused(
    splash: Callable[..., Result], tmp_path: Path
) -> None:
    broken = tmp_path / "agent.npz"
    broken.write_text("not an agent")
    result = splash("train", "bash", "--games", "10", "--out", str(broken))
    assert result.exit_code == 2
    assert "is not a splash TD agent" in result.output
    assert "Traceback" not in result.output
    result = splash("train", "bash", "--games", "0", "--out", str(tmp_path / "new.npz"))
    assert result.exit_code == 2
    assert "--games=0: must be a whole number, 1 or more" in result.output
