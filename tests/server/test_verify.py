"""``splash verify``: a finished game's replay reveals its secret and seeds, and every draw,
ruling and bot decision its server chose is derived again from them; any one change to the
log is caught at its action and named."""

from __future__ import annotations

import copy
import json
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from splash.cli.main import app
from splash.core.actions import Json
from splash.core.fairness import Reveal, commitment
from splash.core.record import GameRecord
from splash.server.app import create_app
from splash.server.rules import build_game
from splash.server.settings import ServerSettings
from splash.server.verify import VerifyError, first_difference, verify
from tests.server.conversation import (
    NO_HOLD,
    QUICK_TIMER_S,
    SMALL_BASH,
    create_room,
    join,
    msg,
    receive_until,
    take_seat,
)
from tests.server.harness import ServerClient
from tests.server.process import free_port, server

LAST_LINE = re.compile(r"verify: ok actions=(\d+) chance=(\d+) rulings=(\d+) bots=(\d+)")
TOWER = ["options.players=2", "options.drops_to_win=1"]
"""A Splash! game that ends at the first fall."""


def finished(client: ServerClient, room: str) -> dict[str, Any]:
    """The replay of ``room`` once its game is over."""
    deadline = time.monotonic() + 120
    while client.get(f"/api/rooms/{room}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the game did not end"
        time.sleep(0.05)
    replay: dict[str, Any] = client.get(f"/api/rooms/{room}/replay").json()
    return replay


@contextmanager
def served(folder: Path) -> Iterator[ServerClient]:
    """The application on a fresh SQLite database in ``folder``, for the ``with`` block."""
    settings = ServerSettings(database_url=f"sqlite:///{folder / 'splash.db'}", workers=2)
    with ServerClient(create_app(settings)) as client:
        yield client


@pytest.fixture(scope="module")
def bash_replay(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A Splash & Bash game of a person (whose every decision the timer's bot takes) and a
    bot, played to its end."""
    with served(tmp_path_factory.mktemp("bash")) as client:
        room = create_room(
            client,
            game="bash",
            settings=SMALL_BASH,
            bots=[None, "random"],
            options={"pass_hold_s": 0, "turn_timer_s": QUICK_TIMER_S},
        )["room"]["id"]
        take_seat(client, room, 0, name="Ann", client_seed="Ann's lucky 7")
        return finished(client, room)


@pytest.fixture(scope="module")
def tower_replay(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A Splash! game of two bots, ruled by the physics, played to its first fall."""
    with served(tmp_path_factory.mktemp("tower")) as client:
        room = create_room(client, game="tower", settings=TOWER, bots=["random"])["room"]["id"]
        take_seat(client, room, 1, bot="random")
        return finished(client, room)


def checked(doc: dict[str, Any]) -> VerifyError:
    """The difference :func:`verify` finds in ``doc``."""
    with pytest.raises(VerifyError) as caught:
        verify(GameRecord.from_json(doc))
    return caught.value


def first(doc: dict[str, Any], wanted: Callable[[Json, str], bool]) -> int:
    """The index of the first action of ``doc`` that ``wanted(action, source)`` accepts."""
    sources = doc["meta"]["sources"]
    return next(i for i, a in enumerate(doc["actions"]) if wanted(a, sources[i]))


@pytest.mark.rule("BD12")
def test_a_finished_game_reveals_its_secret_seeds_settings_and_software(
    bash_replay: dict[str, Any],
) -> None:
    reveal = Reveal.parse(bash_replay["meta"]["fairness"])
    assert reveal.secret is not None and reveal.commitment == commitment(
        bytes.fromhex(reveal.secret)
    )
    assert reveal.mode == "play" and list(reveal.settings) == SMALL_BASH
    assert reveal.timer_bot == "random" and reveal.digital == ()
    assert [(s.kind, s.bot, s.client_seed) for s in reveal.seats] == [
        ("human", None, "Ann's lucky 7"),
        ("bot", "random", None),
    ]
    assert set(reveal.versions) >= {"splash", "numpy", "mujoco"}


def test_an_untouched_game_of_splash_and_bash_verifies_with_its_bot_and_timer_decisions(
    bash_replay: dict[str, Any], tmp_path: Path
) -> None:
    sources = bash_replay["meta"]["sources"]
    assert "timer" in sources and "bot" in sources
    verified = verify(GameRecord.from_json(bash_replay))
    assert verified.actions == len(bash_replay["actions"])
    assert verified.chance == sources.count("chance")
    assert verified.bots == sources.count("bot") + sources.count("timer")
    assert verified.rulings == 0
    saved = tmp_path / "replay.json"
    saved.write_text(json.dumps(bash_replay), encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", str(saved)])
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1] == verified.line()
    assert LAST_LINE.fullmatch(verified.line())


def test_an_untouched_game_of_splash_verifies_with_every_placement_re_ruled(
    tower_replay: dict[str, Any],
) -> None:
    verified = verify(GameRecord.from_json(tower_replay))
    placements = [a for a in tower_replay["actions"] if a["kind"] == "result"]
    assert verified.rulings == len(placements) >= 2
    assert verified.bots == tower_replay["meta"]["sources"].count("bot")


def test_a_changed_roll_is_named_at_its_action(bash_replay: dict[str, Any]) -> None:
    doc = copy.deepcopy(bash_replay)
    index = first(doc, lambda a, s: s == "chance" and a["kind"] == "roll")  # type: ignore[index,call-overload]
    doc["actions"][index]["face"] = doc["actions"][index]["face"] % 6 + 1
    error = checked(doc)
    assert (error.index, error.kind) == (index, "chance")


def test_a_changed_drawn_card_is_named_at_its_action(bash_replay: dict[str, Any]) -> None:
    doc = copy.deepcopy(bash_replay)
    index = first(doc, lambda a, s: s == "chance" and a["kind"] == "draw")  # type: ignore[index,call-overload]
    drawn = doc["actions"][index]
    cards = {
        a["card"] for a in doc["actions"] if a["kind"] == "draw" and a["deck"] == drawn["deck"]
    }
    drawn["card"] = sorted(cards - {drawn["card"]})[0]
    error = checked(doc)
    assert (error.index, error.kind) == (index, "chance")


def test_a_changed_bot_decision_is_named_at_its_action(bash_replay: dict[str, Any]) -> None:
    doc = copy.deepcopy(bash_replay)
    game = build_game("bash", SMALL_BASH, "play")
    record = GameRecord.from_json(doc)
    for index, source in enumerate(doc["meta"]["sources"]):
        if source == "bot":
            state = record.replay(game, index)
            others = [
                a.to_json() for a in state.legal_actions() if a.to_json() != doc["actions"][index]
            ]
            if others:
                break
    else:
        pytest.fail("the bot never had a choice")
    doc["actions"][index] = others[0]
    error = checked(doc)
    assert (error.index, error.kind) == (index, "bot")


def test_a_changed_secret_or_a_missing_commitment_is_named(bash_replay: dict[str, Any]) -> None:
    doc = copy.deepcopy(bash_replay)
    secret = doc["meta"]["fairness"]["secret"]
    doc["meta"]["fairness"]["secret"] = ("0" if secret[0] != "0" else "1") + secret[1:]
    error = checked(doc)
    assert (error.index, error.kind) == (None, "commitment")
    doc = copy.deepcopy(bash_replay)
    doc["meta"]["fairness"].update(secret=None, commitment=None, seed=12345)
    error = checked(doc)
    assert (error.index, error.kind) == (None, "commitment")
    assert "12345" in error.why.render()


def test_a_changed_client_seed_moves_every_draw_and_decision_and_the_first_is_named(
    bash_replay: dict[str, Any],
) -> None:
    doc = copy.deepcopy(bash_replay)
    doc["meta"]["fairness"]["seats"][0]["client_seed"] = "Ann's lucky 8"
    error = checked(doc)
    assert error.index is not None and error.index <= first(doc, lambda a, s: s == "chance")
    assert (error.kind, doc["meta"]["sources"][error.index]) in (
        ("chance", "chance"),
        ("bot", "bot"),
        ("bot", "timer"),
    )


def test_a_changed_tremor_component_is_named_at_its_placement(
    tower_replay: dict[str, Any],
) -> None:
    doc = copy.deepcopy(tower_replay)
    index = first(doc, lambda a, s: s == "chance" and a["kind"] == "result")  # type: ignore[index,call-overload]
    tremor = doc["actions"][index]["outcome"]["details"]["tremor"]
    name = next(k for k, v in tremor.items() if isinstance(v, float))
    tremor[name] += 0.0001
    error = checked(doc)
    assert (error.index, error.kind) == (index, "chance")


def test_a_replay_that_cannot_be_checked_is_refused_with_why(
    bash_replay: dict[str, Any], tmp_path: Path
) -> None:
    runner = CliRunner()
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    result = runner.invoke(app, ["verify", str(bad)])
    assert result.exit_code == 2 and "bad.json" in result.output
    old = copy.deepcopy(bash_replay)
    del old["meta"]["fairness"]
    bad.write_text(json.dumps(old), encoding="utf-8")
    result = runner.invoke(app, ["verify", str(bad)])
    assert result.exit_code == 2 and "meta.fairness" in result.output
    changed = copy.deepcopy(bash_replay)
    index = first(changed, lambda a, s: s == "chance" and a["kind"] == "roll")  # type: ignore[index,call-overload]
    changed["actions"][index]["face"] = changed["actions"][index]["face"] % 6 + 1
    bad.write_text(json.dumps(changed), encoding="utf-8")
    result = runner.invoke(app, ["verify", str(bad)])
    assert result.exit_code == 1
    assert result.output.strip().splitlines()[-1].startswith(f"verify: chance at action {index}: ")
    result = runner.invoke(app, ["verify", "http://127.0.0.1:9/api/rooms/abc/replay"])
    assert result.exit_code == 2 and "cannot fetch" in result.output


def test_a_replay_is_fetched_from_its_server_by_the_address_of_its_page(tmp_path: Path) -> None:
    port = free_port()
    with server(f"sqlite:///{tmp_path / 'splash.db'}", port):
        base = f"http://127.0.0.1:{port}"
        created = httpx.post(
            f"{base}/api/rooms",
            json={"game": "bash", "settings": SMALL_BASH, "bots": ["random", "random"]},
        )
        assert created.status_code == 201, created.text
        room = created.json()["room"]["id"]
        deadline = time.monotonic() + 60
        while httpx.get(f"{base}/api/rooms/{room}").json()["status"] != "over":
            assert time.monotonic() < deadline, "the game did not end"
            time.sleep(0.1)
        result = CliRunner().invoke(app, ["verify", f"{base}/static/bash.html?room={room}"])
        assert result.exit_code == 0, result.output
        found = LAST_LINE.fullmatch(result.output.strip().splitlines()[-1])
        assert found is not None and int(found[4]) > 0
        result = CliRunner().invoke(app, ["verify", f"{base}/api/rooms/nosuch/replay"])
        assert result.exit_code == 2 and "404" in result.output


def test_a_long_difference_is_shown_where_it_first_differs() -> None:
    recorded: Json = {"kind": "result", "outcome": {"tower": [{"p": 1}, {"p": 2}], "r": "fell"}}
    derived: Json = {"kind": "result", "outcome": {"tower": [{"p": 1}, {"p": 3}], "r": "fell"}}
    assert first_difference(recorded, derived) == ("outcome.tower[1].p", 2, 3)
    assert first_difference([1, 2], [1, 2, 3]) == ("", [1, 2], [1, 2, 3])
    assert first_difference({"a": 1}, {"a": 1, "b": None}) == ("", {"a": 1}, {"a": 1, "b": None})


def test_a_game_with_a_takeback_verifies_along_its_line_of_play(client: ServerClient) -> None:
    room = create_room(
        client, game="bash", settings=SMALL_BASH, bots=[None, "random"], options=NO_HOLD
    )["room"]["id"]
    token = str(take_seat(client, room, 0, name="Ann", client_seed="takeback"))
    held = client.room(room)
    taken_back = False
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        doc: Any = join(ws, token)
        while doc["status"] != "over":
            if not (doc["view"]["to_act"] == 0 and doc["view"]["legal_actions"]):
                doc = receive_until(ws, "update")[0]
                continue
            legal = doc["view"]["legal_actions"]
            if not taken_back and len(legal) > 1 and held.state.history:
                ws.send_json(msg("act", action=legal[-1], expect=held.index))
                receive_until(ws, "ack")
                ws.send_json(msg("undo"))
                doc = receive_until(ws, "undone")[0]
                taken_back = True
                continue
            ws.send_json(msg("act", action=legal[0], expect=held.index))
            doc = receive_until(ws, "update")[0]
    replay = client.get(f"/api/rooms/{room}/replay").json()
    assert taken_back and replay["meta"]["takebacks"]
    verified = verify(GameRecord.from_json(replay))
    assert verified.actions == len(replay["actions"]) and verified.chance > 0


@pytest.mark.rule("BD12")
def test_the_secret_is_shown_nowhere_before_the_end_and_revealed_once_the_room_closes(
    client: ServerClient,
) -> None:
    created = create_room(client, game="bash", settings=SMALL_BASH)
    room, host = created["room"]["id"], created["host_token"]
    tokens = [str(take_seat(client, room, seat, client_seed=f"seed {seat}")) for seat in (0, 1)]
    secret = client.stored(room).secret
    assert secret is not None
    seen: list[str] = []
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        seen.append(json.dumps(join(ws, tokens[0])))
        refused = client.get(f"/api/rooms/{room}/replay")
        assert refused.status_code == 409
        seen += [refused.text, client.get(f"/api/rooms/{room}").text, client.get("/metrics").text]
        closing = client.delete(f"/api/rooms/{room}", headers={"Authorization": f"Bearer {host}"})
        assert closing.status_code == 200, closing.text
        seen += [closing.text, json.dumps(receive_until(ws, "closed")[0])]
    assert not [text for text in seen if secret in text]
    revealed = client.get(f"/api/rooms/{room}/replay").json()["meta"]["fairness"]
    assert revealed["secret"] == secret and revealed["commitment"] == created["room"]["commitment"]


def test_revealed_settings_that_do_not_build_the_recorded_game_are_named(
    bash_replay: dict[str, Any],
) -> None:
    doc = copy.deepcopy(bash_replay)
    doc["meta"]["fairness"]["settings"] = [
        s for s in doc["meta"]["fairness"]["settings"] if not s.startswith("board.lanes.outer=")
    ] + ["board.lanes.outer=13"]
    error = checked(doc)
    assert (error.index, error.kind) == (None, "settings")


def test_a_person_s_move_replaced_by_an_illegal_one_is_named_at_its_action(
    bash_replay: dict[str, Any],
) -> None:
    doc = copy.deepcopy(bash_replay)
    index = first(doc, lambda a, s: s == "timer")
    doc["meta"]["sources"][index] = "human"
    doc["actions"][index] = {"kind": "roll", "face": 99}
    error = checked(doc)
    assert (error.index, error.kind) == (index, "illegal")


def _placement(doc: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    index = first(doc, lambda a, s: s == "chance" and a["kind"] == "result")  # type: ignore[index,call-overload]
    outcome: dict[str, Any] = doc["actions"][index]["outcome"]
    return index, outcome


def test_a_changed_ruling_is_named_and_told_apart_from_other_software(
    tower_replay: dict[str, Any],
) -> None:
    doc = copy.deepcopy(tower_replay)
    index, outcome = _placement(doc)
    outcome["details"]["method_note"] = "changed"
    error = checked(doc)
    assert (error.index, error.kind) == (index, "ruling")
    doc["meta"]["fairness"]["versions"]["mujoco"] = "0.0.1"
    error = checked(doc)
    assert (error.index, error.kind) == (index, "platform")
    assert "mujoco 0.0.1 served the game" in error.why.render()


def test_a_ruling_method_this_install_lacks_is_named(tower_replay: dict[str, Any]) -> None:
    doc = copy.deepcopy(tower_replay)
    index, outcome = _placement(doc)
    outcome["details"]["method"] = "simulation-quick/99"
    error = checked(doc)
    assert (error.index, error.kind) == (index, "version unavailable")
    assert "simulation-quick/99" in error.why.render()
