"""What a configuration changes from the designed rules: every option and data value of a
:class:`~splash.games.bash.config.BashConfig` that differs from the shipped defaults, with
the rule that uses it and what it means (the table of "Options at a glance" in the rules)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from splash.core.i18n import N_, Message, message
from splash.games.bash.card_text import card_sentences, joined
from splash.games.bash.config import DECKS, LANES, BashConfig, CardSpec
from splash.games.bash.names import name

OPTION_RULES: dict[str, tuple[tuple[str, ...], str]] = {
    "teams": (("BD01",), N_("number of teams, 2 to 4")),
    "die_faces": (("BD05",), N_("faces of the die")),
    "obstacles": (("BD11",), N_("obstacles removed once used (one-shot) or there for good")),
    "helmsman_laps": (("BD13",), N_("laps the helmsman runs")),
    "turn_cap": (("BD14",), N_("team turns before a game is stopped with no winner")),
    "hand_limit": (("B20",), N_("high tide cards a team may hold")),
    "lane_change_cost": (("B09",), N_("squares of movement per lane crossed")),
    "tail_wind": (("B03", "BD06"), N_("extra square walked in the Outer lane")),
    "bump_distance": (("B12", "BD08"), N_("squares a bumped pawn is pushed forward or backward")),
    "turn_order": (
        ("BV01",),
        N_(
            "variant, turn order: seat (the draft), rotate (each round opened by the next team)"
            " or snake (rounds go forward, then backward)"
        ),
    ),
    "first_turn_penalty": (
        ("BV02",),
        N_("variant: the game's first roll is reduced by this much, to a minimum of 1"),
    ),
    "start_stagger": (
        ("BV03",),
        N_("variant: each later team's pawns start this many Centre squares further ahead"),
    ),
    "catch_up_draw": (
        ("BV04",),
        N_("variant: the team furthest behind in the race draws twice at its turn's start"),
    ),
    "opening_cards": (
        ("BV05",),
        N_("variant: high tide cards every team but the first draws before the first turn"),
    ),
}
"""The rule ids and the meaning of each option, by its key under ``options``."""

DECK_RULES = {"low_tide": "BD15", "high_tide": "BD16"}
"""The rule that lists each deck's cards."""

NONE = "—"
"""Shown for a value that one side does not have (a card the draft has not, or has)."""


@dataclass(frozen=True)
class Change:
    """One value that differs from the designed rules."""

    key: str
    """Its ``--set`` key (``options.turn_order``, ``decks.high_tide.undertow``)."""
    draft: str | Message
    """The designed rules' value."""
    value: str | Message
    """This configuration's value."""
    rules: tuple[str, ...]
    """The ids of the rules that use it (``BV01``)."""
    meaning: Message
    """What it means, in a line."""

    @property
    def variant(self) -> bool:
        """Whether it is one of the variants that are not part of the draft (BV01-BV05)."""
        return any(rule.startswith("BV") for rule in self.rules)


def shown(value: object) -> str:
    """A value as ``--set`` writes it: ``true``, ``snake``, ``[0.0, 0.5]``."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def changes(config: BashConfig, draft: BashConfig | None = None) -> list[Change]:
    """Every value of ``config`` that differs from ``draft`` (default: the shipped data and
    options), options first, then the board, then each deck's cards."""
    base = draft if draft is not None else BashConfig.load()
    found: list[Change] = []
    ours, theirs = config.options.model_dump(mode="json"), base.options.model_dump(mode="json")
    for key, value in ours.items():
        if value != theirs[key]:
            rules, meaning = OPTION_RULES.get(key, ((), key))
            found.append(
                Change(f"options.{key}", shown(theirs[key]), shown(value), rules, Message(meaning))
            )
    found += _board_changes(config.board.model_dump(mode="json"), base.board.model_dump())
    for deck in DECKS:
        found += _deck_changes(deck, config.decks[deck].cards, base.decks[deck].cards)
    return found


def _board_changes(ours: Mapping[str, Any], theirs: Mapping[str, Any]) -> list[Change]:
    found = []
    if ours["laps"] != theirs["laps"]:
        found.append(
            Change(
                "board.laps",
                shown(theirs["laps"]),
                shown(ours["laps"]),
                ("BD02",),
                message("laps a pawn runs"),
            )
        )
    for lane in LANES:
        if ours["lanes"][lane] != theirs["lanes"][lane]:
            found.append(
                Change(
                    f"board.lanes.{lane}",
                    shown(theirs["lanes"][lane]),
                    shown(ours["lanes"][lane]),
                    ("BD02",),
                    message("squares per lap in the {lane} lane", lane=name(lane)),
                )
            )
    for lane in LANES:
        if ours["colours"][lane] != theirs["colours"][lane]:
            found.append(
                Change(
                    f"board.colours.{lane}",
                    name(theirs["colours"][lane]),
                    name(ours["colours"][lane]),
                    ("BD07",),
                    message("the deck drawn from in the {lane} lane", lane=name(lane)),
                )
            )
    ours_cp, theirs_cp = ours["checkpoints"]["fractions"], theirs["checkpoints"]["fractions"]
    if ours_cp != theirs_cp:
        found.append(
            Change(
                "board.checkpoints.fractions",
                shown(theirs_cp),
                shown(ours_cp),
                ("BD02",),
                message("checkpoint lines as fractions of a lap"),
            )
        )
    return found


def _deck_changes(
    deck: str, ours: Mapping[str, CardSpec], theirs: Mapping[str, CardSpec]
) -> list[Change]:
    found = []
    rule = (DECK_RULES[deck],)
    for card in [*theirs, *(c for c in ours if c not in theirs)]:
        mine, designed = ours.get(card), theirs.get(card)
        key = f"decks.{deck}.{card}"
        if mine is None or designed is None:
            found.append(
                Change(
                    key,
                    shown(designed.count) if designed is not None else NONE,
                    shown(mine.count) if mine is not None else NONE,
                    rule,
                    message("a card the draft has not: {card}", card=name(card))
                    if designed is None
                    else message("a card of the draft left out: {card}", card=name(card)),
                )
            )
            continue
        if mine.count != designed.count:
            found.append(
                Change(
                    key,
                    shown(designed.count),
                    shown(mine.count),
                    rule,
                    message(
                        "copies of {card} in the {deck} deck", card=name(card), deck=name(deck)
                    ),
                )
            )
        if (mine.timing, mine.effects) != (designed.timing, designed.effects):
            found.append(
                Change(
                    f"{key}.effects",
                    _text(designed),
                    _text(mine),
                    rule,
                    message("what {card} does", card=name(card)),
                )
            )
    return found


def _text(card: CardSpec) -> Message:
    return joined(card_sentences(card), " ")
