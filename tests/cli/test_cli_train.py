"""``splash train bash``: its input refused with a clear line and exit code 2."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from typer.testing import Result

from splash.learn.agent import read_agent
from splash.learn.td import TDSettings


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


def test_the_learner_s_settings_are_options_checked_and_recorded(
    splash: Callable[..., Result], tmp_path: Path
) -> None:
    out = tmp_path / "new.npz"
    for option, value, said in (
        ("--hidden", "0", "--hidden=0: must be a whole number from 1 to 1024"),
        ("--alpha", "0", "--alpha=0.0: must be a number above 0, at most 1"),
        ("--lambda", "1.5", "--lambda=1.5: must be a number from 0 to 1"),
        ("--epsilon", "-0.1", "--epsilon=-0.1: must be a number from 0 to 1"),
    ):
        result = splash("train", "bash", "--games", "2", "--out", str(out), option, value)
        assert result.exit_code == 2, (option, result.output)
        assert said in " ".join(result.output.split()), (option, result.output)
        assert "Traceback" not in result.output
    assert not out.exists()
    args = ("train", "bash", "--games", "2", "--out", str(out), "--every", "100000")
    result = splash(*args, "--hidden", "3", "--alpha", "0.02", "--lambda", "0.5")
    assert result.exit_code == 0, result.output
    agent = read_agent(out)
    assert agent.net.hidden == 3
    assert agent.training.settings == TDSettings(hidden=3, alpha=0.02, lam=0.5)
    result = splash(*args, "--hidden", "4")
    assert result.exit_code == 2
    assert "--hidden 3 --alpha 0.02 --lambda 0.5 --epsilon 0.1" in " ".join(result.output.split())
