"""What the fast core cannot express is refused, naming the setting or the bot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from splash.core.errors import OptionError
from splash.fast.tables import FastConfigError, build_tables, refusal
from splash.games.bash import BashGame
from splash.games.bash.config import BashConfig, CardSpec, DeckSpec
from splash.sim.fast_engine import fast_refusal, fast_table
from splash.sim.runner import GameSpec
from tests.fast.decks import every_primitive_data, write_data_dir


class NewPrimitive(BaseModel):
    """A primitive a designer might add to the reference engine only."""

    primitive: str
    amount: int


def _with_card(card: CardSpec, name: str = "tsunami") -> BashGame:
    cfg = BashConfig.load()
    deck = cfg.decks["high_tide"]
    cards = {**deck.cards, name: card}
    decks = {
        **cfg.decks,
        "high_tide": DeckSpec.model_construct(format=deck.format, deck="high_tide", cards=cards),
    }
    return BashGame(BashConfig(board=cfg.board, decks=decks, options=cfg.options))


def test_a_primitive_the_core_lacks_is_refused_naming_the_card() -> None:
    effect: Any = NewPrimitive(primitive="tidal_wave", amount=1)
    card = CardSpec.model_construct(count=2, timing="any", effects=[effect])
    game = _with_card(card)
    with pytest.raises(FastConfigError) as raised:
        build_tables(game)
    assert raised.value.key == "decks.high_tide.tsunami.effects"
    assert "tidal_wave" in str(raised.value)
    assert isinstance(raised.value, OptionError)


@pytest.mark.rule("BV04")
def test_a_catch_up_draw_that_would_roll_too_many_dice_is_refused_naming_the_option() -> None:
    """Four extra dice four times on a low tide card and on a high tide card: 33 dice a turn
    at most, 49 when the low tide draw is made twice (the core holds 40)."""
    data = every_primitive_data()
    dice = {"primitive": "extra_die", "dice": 4}
    data["decks"]["low_tide"]["storm"] = {"count": 1, "timing": "on_draw", "effects": [dice] * 4}
    data["decks"]["high_tide"]["squall"] = {
        "count": 1,
        "timing": "before_roll",
        "effects": [dice] * 4,
    }
    assert refusal(BashGame.from_settings(data=data)) is None
    error = refusal(BashGame.from_settings([("options.catch_up_draw", True)], data=data))
    assert error is not None
    assert (error.key, error.value) == ("options.catch_up_draw", True)
    assert "40 dice a turn" in str(error)


def test_too_many_kinds_of_card_are_refused_naming_the_deck(tmp_path: Path) -> None:
    data = every_primitive_data()
    for i in range(12):
        data["decks"]["low_tide"][f"calm_{i}"] = {"count": 1, "timing": "on_draw", "effects": []}
    error = refusal(BashGame.from_settings(data=data))
    assert error is not None
    assert error.key == "decks.low_tide"
    spec = GameSpec.of("bash", data_dir=write_data_dir(tmp_path, data))
    reason = fast_refusal(spec)
    assert reason is not None and "decks.low_tide" in str(reason)
    with pytest.raises(OptionError):
        fast_table(spec, [1])


def test_the_default_game_is_expressible() -> None:
    assert refusal(BashGame()) is None
    assert fast_refusal(GameSpec.of("bash")) is None


def test_a_bot_the_core_does_not_play_is_named() -> None:
    reason = fast_refusal(GameSpec.of("bash", [], ["random", "expectimax"]))
    assert reason is not None and "expectimax" in str(reason)
