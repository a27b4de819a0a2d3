"""Splash & Bash turns that ask only real questions, in a real browser: Pass played for the
seat by the server when it is its only choice (unless the person asks to be asked), cards
that say what they do, the roll's modifiers named, the Outer and Centre lanes told apart."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

import pytest
from babel.messages.pofile import read_po

from splash.core.i18n import message
from splash.games.bash.names import name
from tests.server.messages import RoomCreateBody
from tests.web.rooms import CHOICE, create_seated_room, open_seat_page, wait_for_choice

if TYPE_CHECKING:
    from playwright.sync_api import Page

Shot: TypeAlias = "Callable[[Page, str], Path]"
LOCALE = Path(__file__).resolve().parents[2] / "src" / "splash" / "locale"
CARDS_JS = Path(__file__).resolve().parents[2] / "src/splash/web/static/js/bash-cards.js"


SHORT = [
    "board.laps=1",
    "board.lanes.outer=16",
    "board.lanes.centre=14",
    "board.lanes.high_tide=12",
]
"""A course of one short lap: a whole game in a few dozen turns."""

LIFEBUOYS_ONLY = (
    "board.colours.outer=high_tide",
    "board.colours.centre=high_tide",
    *(
        f"decks.high_tide.{card}.count=0"
        for card in ("slide", "rogue_wave", "undertow", "shove", "fish_bone", "second_chance")
    ),
)
"""Every lane draws from a high tide deck of lifebuoys alone (played only on a fall): a
team holding one has Pass as its only choice before and after its roll. With the first
legal choice against greedy, team A meets it at its 4th decision (8 of 8 seeds, offline):
the automatic Pass comes every time, not only in the games whose deal brings it."""


def bash_room(
    server_url: str, others: list[str | None], teams: int = 2, settings: tuple[str, ...] = ()
) -> tuple[str, str]:
    """A Splash & Bash room of ``teams``: team A a person (its token), the others ``others``
    (a bot spec, or ``None`` for an open seat)."""
    body: RoomCreateBody = {
        "game": "bash",
        "settings": [f"options.teams={teams}", *settings],
        "bots": [None, *others],
    }
    return create_seated_room(server_url, body)


def open_team(page: Page, room: str, token: str) -> None:
    open_seat_page(page, room, token, "bash.html")
    page.wait_for_selector("svg.pool")


def luminance(hex_colour: str) -> float:
    """The relative luminance of ``#rrggbb`` (WCAG 2)."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_contrast_of_black_on_white_is_21() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#777777") == pytest.approx(1.0)


def test_every_card_sentence_is_translated_in_every_catalogue() -> None:
    sentences = re.findall(r'(?:N_|gettext)\("([^"]+)"', CARDS_JS.read_text(encoding="utf-8"))
    # 5 timings, 3 teams and 3 more words of a target, 17 effects, and "Nothing happens."
    assert len(set(sentences)) == 29
    for lang in ("fr", "cs", "it"):
        with (LOCALE / lang / "LC_MESSAGES" / "splash.po").open("rb") as po:
            catalogue = read_po(po)
        for sentence in sentences:
            entry = catalogue.get(sentence)
            assert entry is not None and entry.string, f"{lang}: {sentence!r} has no translation"


def play_first_choices(page: Page, done: Callable[[], bool], turns: int = 80) -> int:
    """Click the first choice offered until ``done()``; how many times Pass came alone."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    offered_pass_alone = 0
    for _ in range(turns):
        wait_for_choice(page, also="#lone-pass")
        kinds = page.locator(CHOICE).evaluate_all("bs => bs.map(b => b.dataset.kind)")
        offered_pass_alone += kinds == ["pass"]
        if done():
            break
        try:
            page.locator(CHOICE).first.click(timeout=5_000)
        except PlaywrightTimeout:
            # The choices went away between the look and the click: a bot moved, or the
            # server passed for the seat; look again.
            continue
        page.wait_for_function("() => !document.querySelector('#choices button.choice[disabled]')")
    return offered_pass_alone


@pytest.mark.browser
def test_a_lone_pass_is_played_for_the_seat_and_cards_say_what_they_do(
    page: Page, server_url: str, screenshot: Shot, page_errors: list[str]
) -> None:
    room, token = bash_room(server_url, ["greedy"], settings=LIFEBUOYS_ONLY)
    open_team(page, room, token)
    page.wait_for_selector("#ask-always")
    assert not page.is_checked("#ask-always")
    assert "no one learns from it what you hold" in page.inner_text("#ask-always-why")
    shown: list[str] = []

    def passed_for() -> bool:
        if page.locator("#lone-pass").count():
            shown.append(page.inner_text("#lone-pass"))
        return bool(page.evaluate("() => window.splashBash.passedFor") >= 1)

    offered_pass_alone = play_first_choices(page, passed_for)
    assert page.evaluate("() => window.splashBash.passedFor") >= 1
    assert offered_pass_alone == 0, "Pass alone was offered as a question"
    assert "Passed for you: you had no card to play." in page.inner_text("#log")
    screenshot(page, "lone-pass")
    assert page_errors == []


@pytest.mark.browser
def test_a_person_who_asks_always_is_asked_even_to_pass_and_the_setting_is_kept(
    page: Page, server_url: str, page_errors: list[str]
) -> None:
    room, token = bash_room(server_url, ["greedy"], settings=LIFEBUOYS_ONLY)
    open_team(page, room, token)
    page.wait_for_selector("#ask-always")
    page.check("#ask-always")
    page.reload()
    page.wait_for_selector("#ask-always")
    assert page.is_checked("#ask-always"), "the setting is kept"
    asked: list[bool] = []

    def asked_alone() -> bool:
        kinds = page.locator(CHOICE).evaluate_all("bs => bs.map(b => b.dataset.kind)")
        asked.append(kinds == ["pass"])
        return any(asked)

    play_first_choices(page, asked_alone)
    assert any(asked), "Pass alone was never asked"
    assert page.evaluate("() => window.splashBash.passedFor") == 0
    assert page_errors == []


@pytest.mark.browser
@pytest.mark.parametrize("width", [360, 1280])
def test_the_lanes_differ_by_colour_and_name_and_the_page_fits(
    page: Page, server_url: str, screenshot: Shot, width: int
) -> None:
    page.set_viewport_size({"width": width, "height": 800})
    room, token = bash_room(server_url, ["random", "random"], teams=3)
    open_team(page, room, token)
    fills = page.evaluate(
        """() => Object.fromEntries(['outer', 'centre', 'high_tide'].map(lane => [lane,
            document.querySelector(`svg.pool .lane-${lane} .square`).getAttribute('fill')]))"""
    )
    assert contrast(fills["outer"], fills["centre"]) >= 3
    assert contrast(fills["centre"], fills["high_tide"]) >= 3
    if page.locator("#fold-lanes").count():  # a phone's width: the legend folds under the pool
        page.click("#fold-lanes > summary")
    legend = page.inner_text(".lane-legend")
    assert "Outer lane" in legend and "Centre lane" in legend
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    screenshot(page, f"lanes-{width}")


@pytest.mark.browser
def test_the_roll_line_names_breeze_headwind_and_tail_wind(page: Page, server_url: str) -> None:
    room, token = bash_room(server_url, ["random"])
    open_team(page, room, token)
    page.wait_for_function("() => window.splashBash.board")
    lines = page.evaluate(
        """async () => {
            const { rollModifiers } = await import('/static/js/bash-text.js');
            const board = window.splashBash.board;
            const view = (lane, dice, roll) => ({ team: 0, active: 'A1', dice, roll,
                pieces: [[{ lane, s: 3, finished: false }, { lane: null, s: 0, finished: false }]] });
            return [rollModifiers(board, view(1, [3], 4)), rollModifiers(board, view(0, [3], 2)),
                    rollModifiers(board, view(0, [1], 1)), rollModifiers(board, view(1, [], 0))];
        }"""
    )
    assert lines == [
        ["breeze +1"],
        ["headwind \u22121", "tail wind +1 in the Outer lane"],
        ["tail wind +1 in the Outer lane"],
        [],
    ]


@pytest.mark.browser
def test_a_card_button_and_a_card_in_hand_say_what_the_card_does_in_french(
    page: Page, server_url: str
) -> None:
    room, token = bash_room(server_url, ["random"])
    open_team(page, room, token)
    page.click("[data-lang-choice=fr]")
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    page.wait_for_function(
        "() => window.splashBash.board && window.splashBash.board.locale === 'fr'"
    )
    texts = page.evaluate(
        """async () => {
            const { cardText } = await import('/static/js/bash-cards.js');
            const board = window.splashBash.board;
            // A deck of a data directory: its cards are told from their effects alone.
            const custom = { ...board, decks: { high_tide: { name: 'x', cards: { tsunami: {
                name: 'Tsunami', count: 1, timing: 'before_roll',
                effects: [{ primitive: 'extra_die', dice: 2 },
                          { primitive: 'push', direction: 'outward',
                            target: { team: 'other', lane: 'centre', within: 4, next_to: false } }],
            } } } } };
            return { slide: cardText(board, 'slide'), breeze: cardText(board, 'breeze'),
                     undertow: cardText(board, 'undertow'), tsunami: cardText(custom, 'tsunami'),
                     unknown: cardText(board, 'no_such_card') };
        }"""
    )

    def fr(text: str, **params: object) -> str:
        return message(text, **params).render("fr")

    any_time = fr("Play it at any time of your turn.")
    assert texts["slide"] == fr("Your pawn walks {squares} squares forward now.", squares=3) + (
        " " + any_time
    )
    assert (
        texts["slide"] != "Your pawn walks 3 squares forward now. Play it at any time of your turn."
    )
    assert texts["breeze"] == fr("The roll counts {amount} more.", amount=1)  # drawn: no timing
    high_tide = fr("in the {lane} lane", lane=name("high_tide").render("fr"))
    assert texts["undertow"] == " ".join(
        [
            fr(
                "Make {pawn} fall into the pool.",
                pawn=", ".join(
                    [
                        fr("a pawn of another team"),
                        high_tide,
                        fr("at most {squares} squares from yours", squares=6),
                    ]
                ),
            ),
            any_time,
        ]
    )
    centre = fr("in the {lane} lane", lane=name("centre").render("fr"))
    pawn = ", ".join(
        [
            fr("a pawn of another team"),
            centre,
            fr("at most {squares} squares from yours", squares=4),
        ]
    )
    assert texts["tsunami"] == " ".join(
        [
            fr("Roll {dice} dice more this turn.", dice=2),
            fr("Push {pawn} one lane outward.", pawn=pawn),
            fr("Play it before the roll."),
        ]
    )
    assert texts["unknown"] == ""


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("teams", [3, 4])
def test_a_whole_game_of_several_teams_is_played_through_the_page(
    page: Page, server_url: str, screenshot: Shot, page_errors: list[str], teams: int
) -> None:
    room, token = bash_room(server_url, ["random"] * (teams - 1), teams, tuple(SHORT))
    open_team(page, room, token)
    cards_seen = 0
    for clicks in range(300):
        wait_for_choice(page)
        if page.locator("#choices .winner").count():
            break
        card_buttons = page.locator(f"{CHOICE}[data-kind=play], {CHOICE}[data-kind=discard]")
        for i in range(card_buttons.count()):
            assert card_buttons.nth(i).locator(".card-text").inner_text() != ""
            cards_seen += 1
        for item in page.locator("#hands li.mine .hand-cards li").all_inner_texts():
            assert " — " in item, f"a card in hand without its text: {item!r}"
        offered = page.locator(CHOICE)
        (offered.last if clicks % 4 == 0 else offered.first).click()
        page.wait_for_function("() => !document.querySelector('#choices button.choice[disabled]')")
    else:
        pytest.fail("the game did not end within 300 choices")
    assert re.fullmatch(r"Team [A-D]( \(.+\))? wins!", page.inner_text("#choices .winner"))
    assert page.inner_text("#error-line") == ""
    screenshot(page, f"over-{teams}-teams")
    assert page_errors == []
