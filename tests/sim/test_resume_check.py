"""The one check before resuming stored games, shared by results files and sweeps."""

from __future__ import annotations

import pytest

from splash.core.errors import OptionError
from splash.core.i18n import Message, message
from splash.sim.resume import RUN_KEYS, check_same_run

RUN = {
    "game": "bash",
    "options": '{"options.teams": 3}',
    "bots": ["random", "greedy"],
    "engine": "reference",
}


def refusal(what: str, found: str) -> Message:
    return message(
        "{file} holds games with {what} {found}: give the same to resume, or another --out",
        file="x",
        what=what,
        found=found,
    )


def test_the_same_run_resumes() -> None:
    check_same_run({**RUN, "format": "splash/sim-results/1"}, RUN, refusal)


@pytest.mark.parametrize(("key", "option"), RUN_KEYS)
def test_another_game_options_or_bots_are_refused(key: str, option: str) -> None:
    stored = {**RUN, key: "other"}
    with pytest.raises(OptionError) as error:
        check_same_run(stored, RUN, refusal)
    assert (error.value.key, error.value.value) == (option, RUN[key])
    assert f'holds games with {key} "other"' in str(error.value)


def test_a_document_without_the_key_is_refused() -> None:
    with pytest.raises(OptionError, match="bots null"):
        check_same_run({"game": "bash", "options": RUN["options"]}, RUN, refusal)
