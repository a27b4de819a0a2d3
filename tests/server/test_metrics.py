"""``GET /metrics``: the process's series in the Prometheus text format, each labelled with
its ``splash_instance``, moved by what the server does (the cluster's take-overs and
hand-overs: tests/server/test_cluster.py)."""

from __future__ import annotations

from collections.abc import Mapping

from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample

from splash.server.app import create_app
from splash.server.metrics import OTHER_BOT, bot_label
from splash.server.settings import ServerSettings
from tests.server.conversation import (
    NO_HOLD,
    SMALL_BASH,
    create_room,
    join,
    msg,
    receive,
    receive_until,
    take_seat,
)
from tests.server.harness import Serve, ServerClient
from tests.server.messages import ServerMessage
from tests.server.test_check_message import TOWER

INSTANCE = "metrics-1"


def scrape(client: TestClient) -> list[Sample]:
    """Every sample ``/metrics`` shows, parsed as Prometheus parses the text format."""
    response = client.get("/metrics")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    return [s for f in text_string_to_metric_families(response.text) for s in f.samples]


def value(samples: list[Sample], name: str, **labels: str) -> float:
    """The sum of the samples ``name`` whose labels include ``labels`` (0 when none)."""
    return sum(s.value for s in samples if s.name == name and labels.items() <= s.labels.items())


def labels_of(samples: list[Sample], name: str) -> list[Mapping[str, str]]:
    return [s.labels for s in samples if s.name == name]


def test_every_series_is_labelled_with_the_instance_and_none_with_instance(
    client: ServerClient,
) -> None:
    samples = scrape(client)
    names = {s.name for s in samples}
    for expected in (
        "splash_actions_committed_total",
        "splash_commit_seconds_bucket",
        "splash_transaction_seconds_count",
        "splash_websocket_connections",
        "splash_websocket_connections_opened_total",
        "splash_rooms_open",
        "splash_rooms_owned",
        "splash_lease_takeovers_total",
        "splash_checks_total",
    ):
        assert expected in names, expected
    for sample in samples:
        assert "instance" not in sample.labels, sample
        assert sample.labels.get("splash_instance"), sample


def test_each_app_counts_in_a_registry_of_its_own(sqlite_url: str) -> None:
    apps = [
        create_app(ServerSettings(database_url=sqlite_url, instance=f"app-{n}")) for n in (1, 2)
    ]
    with TestClient(apps[0]) as first:
        first.get("/api/rooms/nosuchroom")  # a 404 room_not_found: counted by the first only
        seen = scrape(first)
    with TestClient(apps[1]) as second:
        other = scrape(second)
    assert value(seen, "splash_errors_sent_total", code="room_not_found", transport="http") == 1
    assert value(other, "splash_errors_sent_total") == 0
    assert {s.labels["splash_instance"] for s in seen} == {"app-1"}
    assert {s.labels["splash_instance"] for s in other} == {"app-2"}


def test_a_game_moves_the_counters(serve: Serve) -> None:
    with serve(instance=INSTANCE) as client:
        before = scrape(client)
        assert value(before, "splash_actions_committed_total") == 0
        created = create_room(
            client,
            game="bash",
            settings=SMALL_BASH,
            bots=[None, "greedy:samples=2"],
            options=NO_HOLD,
        )
        room = created["room"]["id"]
        token = take_seat(client, room, 0)
        with client.websocket_connect(f"/ws/rooms/{room}") as ws:
            doc: ServerMessage = join(ws, token)
            opened = scrape(client)
            ws.send_json(msg("nonsense"))
            error, _ = receive_until(ws, "error")
            ws.send_json(msg("check", action={"kind": "pass"}))
            acked = 0
            for _ in range(1000):  # seat 0 plays until the bot has played once
                if doc["type"] == "ack":
                    acked += 1
                if doc["type"] == "update" and doc["source"] == "bot" and acked:
                    break
                if doc["type"] in ("welcome", "update") and doc["view"]["to_act"] == 0:
                    legal = doc["view"]["legal_actions"]
                    if legal:
                        index = doc["index"] + (1 if doc["type"] == "update" else 0)
                        ws.send_json(msg("act", action=legal[0], expect=index))
                doc = receive(ws)
            assert acked, "seat 0 played nothing"
        tower = create_room(client, game="tower", settings=TOWER)["room"]["id"]
        client.post(f"/api/rooms/{tower}/requests/placements")
        after = scrape(client)
    assert value(opened, "splash_websocket_connections", splash_instance=INSTANCE) == 1
    assert value(after, "splash_websocket_connections") == 0
    assert value(after, "splash_websocket_connections_opened_total") == 1
    assert value(after, "splash_errors_sent_total", code=error["code"], transport="ws") >= 1
    assert error["code"] == "unknown_type"
    assert value(after, "splash_checks_total") >= 1
    assert value(after, "splash_actions_committed_total") >= 2  # seat 0's, then the bot's
    assert value(after, "splash_commit_seconds_count") >= 1
    assert value(after, "splash_commit_seconds_sum") > 0
    assert value(after, "splash_transaction_seconds_count") >= 1
    assert value(after, "splash_bot_decision_seconds_count", bot="greedy") >= 1
    bots = {labels["bot"] for labels in labels_of(after, "splash_bot_decision_seconds_count")}
    assert bots == {"greedy"}, "a bot is labelled by its name, never by its spec"
    assert value(after, "splash_requests_total", request="placements") == 1
    assert value(after, "splash_rooms_open") == 2
    assert value(after, "splash_rooms_owned") == 2


def test_a_bot_label_is_its_name_alone() -> None:
    assert bot_label("ismcts:iterations=200,seed=3") == "ismcts"
    assert bot_label("greedy") == "greedy"
    assert bot_label("nosuchbot:key=secret") == OTHER_BOT
    assert bot_label("bad spec:novalue") == OTHER_BOT
