"""The agent file: a format tag that is checked, broken files refused with a clear error."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from splash.core.errors import DocumentError
from splash.learn.agent import FORMAT, AgentFile, Training, read_agent, write_agent
from splash.learn.td import TDSettings, ValueNet


def small_agent(teams: int = 2) -> AgentFile:
    net = ValueNet(7, 3, np.random.default_rng(1))
    training = Training(4, 2, 100, 60, 12345, 61.5, TDSettings(hidden=3))
    return AgentFile(net, teams, training)


def test_an_agent_reads_back_as_it_was_written(tmp_path: Path) -> None:
    agent = small_agent()
    write_agent(tmp_path / "a.npz", agent)
    again = read_agent(tmp_path / "a.npz")
    assert np.array_equal(again.net.params, agent.net.params)
    assert (again.net.inputs, again.net.hidden, again.teams) == (7, 3, 2)
    assert again.training == agent.training


def test_a_file_of_another_format_or_a_broken_one_is_refused(tmp_path: Path) -> None:
    agent = small_agent()
    other = tmp_path / "other.npz"
    np.savez(other, format=np.array("splash/td-agent/0"), params=agent.net.params)
    with pytest.raises(DocumentError, match=r"format 'splash/td-agent/0', not splash/td-agent/1"):
        read_agent(other)
    untagged = tmp_path / "untagged.npz"
    np.savez(untagged, params=agent.net.params)
    with pytest.raises(DocumentError, match="no format tag"):
        read_agent(untagged)
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"PK\x03\x04 not a zip at all")
    with pytest.raises(DocumentError, match="is not a splash TD agent"):
        read_agent(garbage)
    array = tmp_path / "array.npy"
    np.save(array, agent.net.params)
    with pytest.raises(DocumentError, match=r"not an \.npz archive"):
        read_agent(array)
    cut = tmp_path / "cut.npz"
    write_agent(cut, agent)
    cut.write_bytes(cut.read_bytes()[:200])
    with pytest.raises(DocumentError, match="is not a splash TD agent"):
        read_agent(cut)
    wrong = tmp_path / "wrong.npz"
    write_agent(wrong, agent)
    with np.load(wrong) as archive:
        entries = {name: archive[name] for name in archive.files}
    entries["params"] = entries["params"][:-1]
    np.savez(wrong, **entries)
    with pytest.raises(DocumentError, match="weights that do not fit"):
        read_agent(wrong)
    with pytest.raises(DocumentError, match="no agent file"):
        read_agent(tmp_path / "missing.npz")
    assert FORMAT == "splash/td-agent/1"
