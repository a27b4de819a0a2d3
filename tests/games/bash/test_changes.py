"""What a configuration changes from the designed rules, and what each card does in words
(the playtest kit's texts)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from splash.core.i18n import Message
from splash.games.bash.card_text import card_sentences
from splash.games.bash.changes import NONE, changes
from splash.games.bash.config import DECKS, BashConfig


def _texts(messages: list[Message]) -> str:
    return " ".join(m.render("en") for m in messages)


def test_the_draft_changes_nothing() -> None:
    assert changes(BashConfig.load()) == []


def test_bv01_a_turn_order_is_a_variant_change_with_its_rule() -> None:
    (found,) = changes(BashConfig.load([("options.turn_order", "snake")]))
    assert found.key == "options.turn_order"
    assert (found.draft, found.value) == ("seat", "snake")
    assert found.rules == ("BV01",)
    assert found.variant
    assert "snake" in found.meaning.render("en")


def test_every_variant_option_names_its_rule() -> None:
    settings = [
        ("options.turn_order", "rotate"),
        ("options.first_turn_penalty", 1),
        ("options.start_stagger", 2),
        ("options.catch_up_draw", True),
        ("options.opening_cards", 1),
    ]
    found = changes(BashConfig.load(settings))
    assert [c.rules for c in found] == [("BV01",), ("BV02",), ("BV03",), ("BV04",), ("BV05",)]
    assert found[3].value == "true"


def test_board_and_deck_values_name_bd02_and_bd16_and_are_not_variants() -> None:
    config = BashConfig.load(
        [
            ("board.lanes.outer", 36),
            ("board.checkpoints.fractions", [0.0, 0.5]),
            ("decks.high_tide.undertow", 0),
        ]
    )
    found = {c.key: c for c in changes(config)}
    assert set(found) == {
        "board.lanes.outer",
        "board.checkpoints.fractions",
        "decks.high_tide.undertow",
    }
    assert found["board.lanes.outer"].rules == ("BD02",)
    assert found["board.checkpoints.fractions"].value == "[0.0, 0.5]"
    assert found["decks.high_tide.undertow"].rules == ("BD16",)
    assert (found["decks.high_tide.undertow"].draft, found["decks.high_tide.undertow"].value) == (
        "3",
        "0",
    )
    assert not any(c.variant for c in found.values())


def test_a_data_folder_s_new_card_and_changed_effect_are_listed(tmp_path: Path) -> None:
    shipped = resources.files("splash.games.bash") / "data"
    for file in ("board.toml", "low_tide.toml", "high_tide.toml"):
        (tmp_path / file).write_text(shipped.joinpath(file).read_text())
    deck = tmp_path / "high_tide.toml"
    text = deck.read_text().replace("squares = 3", "squares = 4")
    deck.write_text(
        text + '\n[cards.pickpocket]\ncount = 1\ntiming = "any"\n'
        'effects = [{ primitive = "steal_card" }]\n'
    )
    found = {c.key: c for c in changes(BashConfig.load(data_dir=tmp_path))}
    assert set(found) == {"decks.high_tide.slide.effects", "decks.high_tide.pickpocket"}
    slide = found["decks.high_tide.slide.effects"]
    assert "3 squares" in str(slide.draft)
    assert "4 squares" in str(slide.value)
    assert (
        found["decks.high_tide.pickpocket"].draft,
        found["decks.high_tide.pickpocket"].value,
    ) == (
        NONE,
        "1",
    )


def test_every_shipped_card_says_what_it_does_and_when() -> None:
    config = BashConfig.load()
    texts = {
        (deck, card_id): _texts(card_sentences(card))
        for deck in DECKS
        for card_id, card in config.decks[deck].cards.items()
    }
    assert texts["low_tide", "calm_water"] == "Nothing happens. Applied at once when drawn."
    assert texts["low_tide", "headwind"].startswith("The roll counts 1 less (at least 1).")
    assert texts["high_tide", "undertow"] == (
        "Make a pawn of another team, in the High tide lane, at most 6 squares from yours fall"
        " into the pool. Play it at any time of your turn."
    )
    assert texts["high_tide", "lifebuoy"] == (
        "When one of your pawns would fall into the pool, it does not fall."
    )
    assert texts["high_tide", "second_chance"].endswith("Play it after the roll.")


def test_a_card_s_text_follows_the_locale() -> None:
    card = BashConfig.load().decks["low_tide"].cards["calm_water"]
    assert card_sentences(card)[0].render("fr") != "Nothing happens."
