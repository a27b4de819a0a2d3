"""Splash! placed by hand, as people place (T06, TD13, T16): the page shades where the
piece may go (the server's placement map), and the piece is moved by dragging it with a
mouse or a finger, or by a tap on the region, then released — no search for a pose the
server accepts. Each test makes at least 6 placements by hand, at least 2 of them on a
target with a neighbour close by, and asserts that no release is refused, that the page
never stands still for 10 s while the game goes on, and that nothing is logged as an error.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

import httpx
import pytest

from tests.server.messages import RoomCreateBody
from tests.web.rooms import friend

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

Shot: TypeAlias = "Callable[[Page, str], Path]"
GIFT = "#action-panel:not([hidden]) #action-buttons button:not([disabled])"
PLACE_PANEL = "#place-panel:not([hidden])"
RELEASE = "[data-place='release']"
HAND_PLACEMENTS = 6
NEAR_PLACEMENTS = 2
MOST_PLACEMENTS = 16
STALL_S = 10.0
NEAR_MM = 45.0

WATCH = """() => {
    const t = window.splashTower;
    window.__stall = { at: performance.now(), index: t.shownIndex, longest: 0 };
    window.__sent = [];
    const send = t.conn.send.bind(t.conn);
    t.conn.send = (body) => {
        window.__sent.push([Math.round(performance.now()), body.type, body.ref ?? null]);
        return send(body);
    };
    const release = document.querySelector("[data-place='release']");
    release.addEventListener('click', () => window.__sent.push([Math.round(performance.now()), 'click']), true);
    setInterval(() => {
        const s = window.__stall, now = performance.now();
        const waiting = t.placing.active || document.querySelector(GIFT);
        if (t.shownIndex !== s.index || waiting || t.view.phase === 'over') {
            s.index = t.shownIndex; s.at = now;
        }
        s.longest = Math.max(s.longest, now - s.at);
    }, 100);
}""".replace("GIFT", json.dumps(GIFT))
"""Record on the page the longest time its shown game stood still while the person had
nothing to do (bots think, the server rules a fall, the page replays it)."""

STATE = """() => {
    const t = window.splashTower, p = t.placing;
    return { active: p.active, map: p.panel.dataset.map || 'none', safe: p.panel.dataset.safe,
             pose: { ...p.pose }, index: t.conn.index, phase: t.view.phase,
             error: document.querySelector('#error-line').textContent };
}"""

NEAR = """(nearMm) => {
    const t = window.splashTower, target = t.placing.target;
    if (!target) return false;
    const [tx, ty] = target.pose.position;
    return (t.view.tower || []).some((p) => p.piece !== target.piece
        && Math.hypot(p.pose.position[0] - tx, p.pose.position[1] - ty) * 1000 < nearMm
        && p.height_mm > target.height_mm - 30);
}"""
"""Whether the target has a neighbour close by: another piece of the tower whose centre is
within ``nearMm`` of the target's, horizontally, and whose top reaches within 30 mm of the
target's top (where the piece placed could touch it)."""

SCREEN = """([x, y]) => {
    const t = window.splashTower;
    return t.scene.screenOf(x, y, t.placing.target);
}"""
GHOST = "() => window.splashTower.scene.ghostOnScreen()"
GOAL = """(outside) => {
    const p = window.splashTower.placing, cell = p.cell();
    if (!cell || !cell.safe.length) return null;
    const points = cell.safe.flat(2);
    const xs = points.map((q) => q[0]), ys = points.map((q) => q[1]);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    if (outside) return [x1 + 8, y1 + 8];
    const inside = (x, y) => cell.safe.some(([outer, ...holes]) => {
        const inRing = (ring) => { let c = false;
            for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
                const [xi, yi] = ring[i], [xj, yj] = ring[j];
                if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
            }
            return c; };
        return inRing(outer) && !holes.some(inRing);
    });
    let best = null, far = -1;
    for (let i = 1; i < 8; i += 1) for (let j = 1; j < 8; j += 1) {
        const x = x0 + ((x1 - x0) * i) / 8, y = y0 + ((y1 - y0) * j) / 8;
        const d = Math.hypot(x - p.pose.xMm, y - p.pose.yMm);
        if (inside(x, y) && d > far && d < 20) { best = [x, y]; far = d; }
    }
    return best;
}"""
"""Where a person takes the piece, in mm: a point of the safe region up to 20 mm from the
piece (the farthest of a grid over the region's box), or with ``outside`` a point beyond the
region's corner (the drop snaps back into the region); null without a region."""


@dataclass
class Person:
    """One person's page and what it did."""

    page: Page
    frames: list[dict[str, Any]] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    placements: int = 0
    near: int = 0
    games: int = 1
    longest_s: float = 0.0
    moved: int = 0
    """Gestures that moved the piece."""
    gestures: int = 0
    """Gestures that ended in the region: a placement with a region to move in and a point of
    it to go to (a forced placement, or a region with no other point, has none)."""
    gifts: int = 0

    def refusals(self) -> list[dict[str, Any]]:
        """The ``error`` frames the server sent this page."""
        return [frame for frame in self.frames if frame.get("type") == "error"]


def listen(page: Page) -> Person:
    """A person on ``page``: its WebSocket frames and console errors recorded."""
    person = Person(page)

    def on_socket(socket: Any) -> None:
        def received(payload: str | bytes) -> None:
            try:
                person.frames.append(json.loads(payload))
            except ValueError:
                person.console.append(f"a frame that is not JSON: {payload!r:.80}")

        socket.on("framereceived", received)

    page.on("websocket", on_socket)
    page.on("pageerror", lambda error: person.console.append(str(error)))
    page.on(
        "console",
        lambda message: person.console.append(message.text) if message.type == "error" else None,
    )
    return person


def tower_room(server_url: str, settings: list[str], people: list[int], seats: int) -> Any:
    """A Splash! room of ``seats`` (random bots but at ``people``): its id and the people's
    tokens by seat."""
    body: RoomCreateBody = {
        "game": "tower",
        "settings": settings,
        "bots": [None if seat in people else "random" for seat in range(seats)],
    }
    created = httpx.post(f"{server_url}/api/rooms", json=body)
    assert created.status_code == 201, created.text
    room = str(created.json()["room"]["id"])
    tokens = {}
    for seat in people:
        taken = httpx.post(f"{server_url}/api/rooms/{room}/seats/{seat}", json={"name": f"P{seat}"})
        assert taken.status_code == 201, taken.text
        tokens[seat] = str(taken.json()["token"])
    return room, tokens


@contextmanager
def seat_page(
    browser: Browser, server_url: str, room: str, seat: int, token: str, **options: Any
) -> Iterator[Person]:
    """A person's page of its own browser context on ``seat`` (``options``: the viewport,
    touch), watched from the start."""
    people: list[Person] = []
    with friend(
        browser,
        server_url,
        room,
        seat=seat,
        token=token,
        html="tower.html",
        before=lambda page: people.append(listen(page)),
        **options,
    ) as page:
        (person,) = people
        page.wait_for_function("() => window.splashTower && window.splashTower.view")
        page.evaluate(WATCH)
        yield person


def wait(person: Person, condition: str, what: str, arg: object = None) -> None:
    """Wait until ``condition`` (a function of the page, of ``arg``) holds; a failure that
    says what was awaited, what the page shows and the last frames otherwise."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        person.page.wait_for_function(condition, arg=arg)
    except PlaywrightTimeout:
        brief = [
            (f.get("type"), f.get("index"), f.get("actor"), f.get("code"))
            for f in person.frames[-12:]
        ]
        sent = person.page.evaluate("() => window.__sent.slice(-14)")
        now = person.page.evaluate("() => Math.round(performance.now())")
        pytest.fail(f"{what}: {person.page.evaluate(STATE)}, {brief}, sent {sent} at {now}")


def _wait_for_map(person: Person) -> dict[str, Any]:
    wait(
        person,
        """() => { const p = window.splashTower.placing;
            return !p.active || (p.panel.dataset.map && p.panel.dataset.map !== 'none'); }""",
        "no placement map came",
    )
    state: dict[str, Any] = person.page.evaluate(STATE)
    return state


def _goal(page: Page, outside: bool) -> list[float] | None:
    """The screen point a gesture ends at (``outside`` the region or in it), or None."""
    goal = page.evaluate(GOAL, outside)
    if goal is None:
        return None
    return list(page.evaluate(SCREEN, goal))


def drag_with_mouse(person: Person, number: int) -> None:
    """Drag the piece from where it is to a point of its region, with the mouse."""
    page = person.page
    before = page.evaluate(STATE)["pose"]
    start = page.evaluate(GHOST)
    outside = number % 3 == 2
    end = _goal(page, outside)
    if end is None:
        return
    person.gestures += not outside
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=8)
    page.mouse.up()
    after = page.evaluate(STATE)
    assert after["safe"] == "true", after
    person.moved += after["pose"] != before


def move_by_touch(person: Person, number: int) -> None:
    """Every other placement a tap on the region, else a drag of the piece by a finger
    (Chromium's touch events, as a phone sends them)."""
    page = person.page
    page.locator("#tower-canvas").scroll_into_view_if_needed()
    before = page.evaluate(STATE)["pose"]
    outside = number % 2 == 1 and number % 3 == 2
    end = _goal(page, outside)
    if end is None:
        return
    person.gestures += not outside
    if number % 2 == 0:
        page.touchscreen.tap(*end)
    else:
        start = page.evaluate(GHOST)
        session = page.context.new_cdp_session(page)
        touch = "Input.dispatchTouchEvent"
        session.send(touch, {"type": "touchStart", "touchPoints": [{"x": start[0], "y": start[1]}]})
        for step in range(1, 9):
            x = start[0] + (end[0] - start[0]) * step / 8
            y = start[1] + (end[1] - start[1]) * step / 8
            session.send(touch, {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        session.send(touch, {"type": "touchEnd", "touchPoints": []})
        session.detach()
    after = page.evaluate(STATE)
    assert after["safe"] == "true", after
    person.moved += after["pose"] != before


def place(person: Person, gesture: Callable[[Person, int], None], *, touch: bool) -> None:
    """Place the gift by hand: move it with ``gesture`` unless it is forced, then release
    it; the server must take it."""
    page = person.page
    state = _wait_for_map(person)
    if not state["active"]:
        return
    near = bool(page.evaluate(NEAR, NEAR_MM))
    if state["map"] == "region":
        gesture(person, person.placements)
    else:
        assert state["map"] == "forced", state
    shown = state["index"]
    if touch:
        # The thumb goes from the tower down to the button: Chromium takes a second tap
        # sooner than this after the first, far from it, for no tap at all.
        page.locator(RELEASE).scroll_into_view_if_needed()
        page.wait_for_timeout(400)
        page.tap(RELEASE)
    else:
        page.click(RELEASE)
    wait(
        person,
        "(n) => window.splashTower.conn.index > n || document.querySelector('#error-line').textContent",
        "the release was not answered",
        shown,
    )
    after = page.evaluate(STATE)
    assert after["index"] > shown, f"the release was not taken: {after}"
    person.placements += 1
    person.near += near


def give(person: Person, *, touch: bool) -> None:
    """Give the first gift offered."""
    page = person.page
    shown = page.evaluate("() => window.splashTower.conn.index")
    button = page.locator(GIFT).first
    try:
        if touch:
            button.tap(timeout=5_000)
        else:
            button.click(timeout=5_000)
    except Exception:
        if page.locator(GIFT).count():
            raise
        return  # redrawn away meanwhile
    wait(person, "(n) => window.splashTower.conn.index > n", "the gift was not taken", shown)
    person.gifts += 1


def turn_of(person: Person) -> str:
    """What ``person`` must do now: ``place``, ``give``, ``over`` or ``wait``."""
    return str(
        person.page.evaluate(
            f"""() => window.splashTower.view.phase === 'over' ? 'over'
                : document.querySelector("{PLACE_PANEL}") && window.splashTower.placing.active ? 'place'
                : document.querySelector("{GIFT}") ? 'give' : 'wait'"""
        )
    )


def longest_stall_s(person: Person) -> float:
    """The longest time the person's pages stood still, so far, in seconds."""
    now = float(person.page.evaluate("() => window.__stall.longest")) / 1000.0
    return max(person.longest_s, now)


def _elsewhere(address: str) -> Callable[[str], bool]:
    """Whether a page's address is no longer ``address``."""
    return lambda url: url != address


def rematch(people: list[Person], *, touch: bool) -> None:
    """The game is over: the first person asks for a rematch and moves to the new room, the
    others follow the offer, as people at a table would."""
    for index, person in enumerate(people):
        person.longest_s = longest_stall_s(person)
        page = person.page
        room = page.url
        button = page.locator("#rematch-ask" if index == 0 else "#rematch-join")
        if touch:
            button.tap()
        else:
            button.click()
        page.wait_for_url(_elsewhere(room))
        page.wait_for_function("() => window.splashTower && window.splashTower.view")
        page.evaluate(WATCH)
        person.games += 1


def play_by_hand(
    people: list[Person], gesture: Callable[[Person, int], None], *, touch: bool, seconds: float
) -> None:
    """Play every person's turns until they placed :data:`HAND_PLACEMENTS` pieces, at least
    :data:`NEAR_PLACEMENTS` of them beside a neighbour (or :data:`MOST_PLACEMENTS`), or the
    game ends."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        placed = sum(p.placements for p in people)
        near = sum(p.near for p in people)
        if placed >= MOST_PLACEMENTS or (placed >= HAND_PLACEMENTS and near >= NEAR_PLACEMENTS):
            return
        todo = [(p, turn_of(p)) for p in people]
        if any(what == "over" for _, what in todo):
            rematch(people, touch=touch)
            continue
        for person, what in todo:
            if what == "place":
                place(person, gesture, touch=touch)
            elif what == "give":
                give(person, touch=touch)
        if all(what == "wait" for _, what in todo):
            people[0].page.wait_for_timeout(100)
    pytest.fail(f"still playing after {seconds} s: {[(p.placements, p.near) for p in people]}")


def assert_played_well(people: list[Person]) -> None:
    """At least 6 placements by hand, 2 beside a neighbour; no refusal, stall or error."""
    placed = sum(p.placements for p in people)
    near = sum(p.near for p in people)
    assert placed >= HAND_PLACEMENTS and near >= NEAR_PLACEMENTS, (placed, near)
    # How many placements leave room to move depends on the game's draws; most gestures that
    # end in the region move the piece (one may land on the pose the piece holds already, and
    # one that ends outside may leave it where it was).
    gestures = sum(p.gestures for p in people)
    assert gestures >= 2 and sum(p.moved for p in people) >= (gestures + 1) // 2, [
        (p.moved, p.gestures) for p in people
    ]
    for person in people:
        assert person.refusals() == []
        longest = longest_stall_s(person)
        assert longest < STALL_S, f"the page stood still {longest:.1f} s"
        assert person.console == []


SIX = ["options.players=6", "options.deal=random"]
"""Six players, so that towers grow beside one another (a game gives each about 5
placements: the person plays on in a rematch)."""


def test_T06_one_person_places_with_the_mouse_among_five_bots_at_1280(
    browser: Browser, server_url: str, screenshot: Shot
) -> None:
    room, tokens = tower_room(server_url, SIX, [0], 6)
    size = {"viewport": {"width": 1280, "height": 800}}
    with seat_page(browser, server_url, room, 0, tokens[0], **size) as person:
        first = True

        def gesture(who: Person, number: int) -> None:
            nonlocal first
            if first:
                screenshot(who.page, "region")
                first = False
            drag_with_mouse(who, number)

        play_by_hand([person], gesture, touch=False, seconds=150)
        assert_played_well([person])


def test_T06_one_person_places_by_touch_among_five_bots_at_390(
    browser: Browser, server_url: str, screenshot: Shot
) -> None:
    room, tokens = tower_room(server_url, SIX, [0], 6)
    phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
    with seat_page(browser, server_url, room, 0, tokens[0], **phone) as person:
        first = True

        def gesture(who: Person, number: int) -> None:
            nonlocal first
            if first:
                who.page.locator("#tower-canvas").scroll_into_view_if_needed()
                screenshot(who.page, "region")
                first = False
            move_by_touch(who, number)

        play_by_hand([person], gesture, touch=True, seconds=150)
        assert_played_well([person])


@pytest.mark.rule("T16")
def test_T16_two_team_mates_place_by_hand_in_two_browsers(
    browser: Browser, server_url: str
) -> None:
    settings = ["options.players=4", "options.teams=2", "options.deal=random"]
    room, tokens = tower_room(server_url, settings, [0, 2], 4)
    size = {"viewport": {"width": 1280, "height": 800}}
    with (
        seat_page(browser, server_url, room, 0, tokens[0], **size) as ann,
        seat_page(browser, server_url, room, 2, tokens[2], **size) as bob,
    ):
        play_by_hand([ann, bob], drag_with_mouse, touch=False, seconds=150)
        assert_played_well([ann, bob])
        assert ann.placements > 0 and bob.placements > 0


REGION_CASES = """async () => {
    const r = await import('/static/js/tower-region.js');
    const square = [[[[-10, -10], [10, -10], [10, 10], [-10, 10]]]];
    const ring = [[[[-20, -20], [20, -20], [20, 20], [-20, 20]], [[-5, -5], [-5, 5], [5, 5], [5, -5]]]];
    const cell = (steadiest) => ({ regions: square, safe: square, steadiest });
    const map = { target: 'table', forced: false, faces: {
        bottom: { 0: cell({ x_mm: 1, y_mm: 2, margin_mm: 5 }), 15: cell(null), 30: cell(null),
                  45: cell(null), 60: cell(null), 75: cell({ x_mm: 0, y_mm: 0, margin_mm: 9 }) },
        round: { 0: cell({ x_mm: 3, y_mm: 0, margin_mm: 7 }) },
    } };
    return {
        inside: [r.inRegion(square, 0, 0), r.inRegion(square, 11, 0), r.inRegion(ring, 0, 0),
                 r.inRegion(ring, 10, 0)],
        nearest: [r.nearestIn(square, 30, 0), r.nearestIn(square, 3.14, -2.66),
                  r.nearestIn(ring, 1, 0.5), r.nearestIn([], 0, 0)],
        keys: [r.turnKey(map, 'bottom', -15), r.turnKey(map, 'bottom', 90),
               r.turnKey(map, 'bottom', 180), r.turnKey(map, 'round', 135)],
        steadiest: r.steadiestPose(map, ['bottom', 'round']),
        first: r.firstPose(map, ['bottom', 'round']),
        turn: [r.ruleTurn(345), r.ruleTurn(180), r.ruleTurn(0)],
    };
}"""


@pytest.mark.rule("TD13")
def test_the_page_reads_the_map_as_the_server_writes_it(page: Page) -> None:
    """Golden values, worked out by hand, of the page's reading of a placement map: a
    region with a hole, the nearest safe offset, the turns of a face's symmetry."""
    page.goto("/static/tower.html")
    found = page.evaluate(REGION_CASES)
    assert found["inside"] == [True, False, False, True]
    near_edge, inside, out_of_hole, none = found["nearest"]
    assert near_edge[1] == 0 and 9.8 <= near_edge[0] <= 10  # on the edge, pulled in
    assert inside == [3.1, -2.7]
    assert out_of_hole[0] >= 5 and abs(out_of_hole[1] - 0.5) <= 0.2  # out of the hole
    assert none is None
    assert found["keys"] == ["75", "0", "0", "0"]  # a cube's turns repeat every 90°
    assert found["steadiest"] == {
        "face": "bottom",
        "rotationDeg": 75,
        "xMm": 0,
        "yMm": 0,
        "marginMm": 9,
    }
    assert found["first"] == {"face": "bottom", "rotationDeg": 0, "xMm": 1, "yMm": 2}
    assert found["turn"] == [-15, 180, 0]


ODDS_LINE = "[data-show='odds']"


@pytest.mark.rule("TD14")
def test_TD14_with_the_odds_aid_the_page_shows_the_chance_the_still_pose_stands(
    browser: Browser, server_url: str, screenshot: Shot
) -> None:
    settings = [
        "options.players=2",
        "options.deal=random",
        "options.drops_to_win=1",
        "options.placement_aid=odds",
    ]
    room, tokens = tower_room(server_url, settings, [0], 2)
    size = {"viewport": {"width": 1280, "height": 800}}
    with seat_page(browser, server_url, room, 0, tokens[0], **size) as person:
        page = person.page
        asked: list[str] = []
        page.evaluate(
            """() => { const t = window.splashTower, ask = t.conn.ask.bind(t.conn);
                window.oddsAsked = [];
                t.conn.ask = (request, body) => {
                    if (request === 'odds') window.oddsAsked.push(JSON.stringify(body));
                    return ask(request, body); }; }"""
        )
        for _ in range(12):
            what = turn_of(person)
            if what == "over":
                break
            if what == "give":
                give(person, touch=False)
                continue
            if what != "place":
                page.wait_for_timeout(100)
                continue
            if _wait_for_map(person)["map"] != "region":
                page.click(RELEASE)
                continue
            wait(
                person,
                "() => document.querySelector(\"[data-show='odds']\").dataset.state === 'known'",
                "no odds",
            )
            shown = page.inner_text(ODDS_LINE)
            assert re.search(r"stood in \d+ of 16 tries \(\d+ %\)", shown), shown
            if person.placements == 0:
                screenshot(page, "odds")
            asked = page.evaluate("() => window.oddsAsked")
            page.locator("#tower-canvas").focus()
            still = page.evaluate("() => JSON.stringify(window.splashTower.placing.pose)")
            for _ in range(8):  # to the region's edge, 40 mm across: nowhere near steady
                page.keyboard.press("Shift+ArrowRight")
            moved = page.evaluate("() => JSON.stringify(window.splashTower.placing.pose)") != still
            wait(
                person,
                "() => document.querySelector(\"[data-show='odds']\").dataset.state === 'known'",
                "no odds at the edge",
            )
            if moved:  # the odds shown are the new pose's, asked anew once it was still
                assert len(page.evaluate("() => window.oddsAsked")) > len(asked)
            edge = page.evaluate("() => JSON.stringify(window.splashTower.placing.pose)")
            page.keyboard.press("Shift+ArrowLeft")
            page.keyboard.press("Shift+ArrowRight")  # back at the edge: its odds are kept
            assert page.evaluate("() => JSON.stringify(window.splashTower.placing.pose)") == edge
            assert page.get_attribute(ODDS_LINE, "data-state") == "known"
            page.wait_for_timeout(300)
            again = page.evaluate("() => window.oddsAsked")
            assert len(again) > len(asked) and len(set(again)) == len(again)
            place(person, lambda who, number: None, touch=False)
        assert person.placements >= 1
        if turn_of(person) == "over":
            wait(person, "() => document.querySelector('#summary-aid')", "no aid on the summary")
            said = page.inner_text("#summary-aid")
            assert said == "Placement aid: where it may go, and its odds"
        assert person.refusals() == [] and person.console == []
