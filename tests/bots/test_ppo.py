"""The ``ppo`` bot's spec: its parameters, and a clear refusal without the extra ``rl`` or
without a readable policy (never a traceback).  These tests need neither PyTorch nor
sb3-contrib; ``tests/envs/test_sb3.py`` plays a saved policy where they are installed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from splash.bots import PLAYS, make_bot
from splash.core import OptionError


@pytest.fixture
def without_rl(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if the extra ``rl`` were not installed (whether it is or not)."""
    for name in ("sb3_contrib", "torch"):
        monkeypatch.setitem(sys.modules, name, None)


def test_ppo_plays_splash_and_bash_only() -> None:
    assert "ppo" in PLAYS["bash"]
    assert "ppo" not in PLAYS["tower"]
    with pytest.raises(OptionError) as error:
        make_bot("ppo:path=policy.zip", 1, game="tower")
    assert "does not play tower" in str(error.value)


@pytest.mark.usefixtures("without_rl")
def test_without_the_extra_the_spec_says_what_to_install(tmp_path: Path) -> None:
    policy = tmp_path / "policy.zip"
    policy.write_bytes(b"not read")
    with pytest.raises(OptionError) as error:
        make_bot(f"ppo:path={policy}", 1, game="bash")
    text = str(error.value)
    assert "optional extra rl" in text
    assert "pip install 'splash-games[rl]'" in text


@pytest.mark.usefixtures("without_rl")
def test_the_refusal_is_translated() -> None:
    with pytest.raises(OptionError) as error:
        make_bot("ppo:path=policy.zip", 1, game="bash")
    assert "extra optionnel rl" in error.value.localized("fr")
    assert "volitelný doplněk rl" in error.value.localized("cs")
    assert "extra opzionale rl" in error.value.localized("it")


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("ppo", "needs path=FILE"),
        ("ppo:deterministic=true", "needs path=FILE"),
        ("ppo:path=p.zip,deterministic=maybe", "true or false"),
        ("ppo:path=p.zip,width=3", "unknown key 'width'"),
    ],
)
def test_wrong_ppo_specs_say_what_is_wrong(spec: str, needle: str) -> None:
    with pytest.raises(OptionError) as error:
        make_bot(spec, 1, game="bash")
    assert needle in str(error.value)


def test_a_missing_policy_is_refused(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    with pytest.raises(OptionError) as error:
        make_bot(f"ppo:path={tmp_path / 'none.zip'}", 1, game="bash")
    assert "no saved policy at" in str(error.value)


def test_an_unreadable_policy_is_refused(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    policy = tmp_path / "policy.zip"
    policy.write_text("not a policy", encoding="utf-8")
    with pytest.raises(OptionError) as error:
        make_bot(f"ppo:path={policy}", 1, game="bash")
    assert "cannot read a saved MaskablePPO policy" in str(error.value)
