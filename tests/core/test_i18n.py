"""Messages for people, in four languages."""

from __future__ import annotations

from splash.core.errors import IllegalActionError
from splash.core.i18n import LOCALES, Message, message, normalise_locale, use_locale


def test_locales_are_normalised() -> None:
    assert normalise_locale("fr_FR.UTF-8") == "fr"
    assert normalise_locale("cs-CZ") == "cs"
    assert normalise_locale("de_DE") == "en"
    assert normalise_locale(None) == "en"
    assert LOCALES == ("en", "fr", "cs", "it")


def test_messages_render_their_parameters_and_nested_messages() -> None:
    inner = Message("pass")
    text = message("illegal action {action} in {state}", action=inner, state="turn 3")
    assert text.render("en") == "illegal action pass in turn 3"


def test_errors_are_english_and_localisable() -> None:
    error = IllegalActionError("pass", "turn 3")
    assert str(error) == "illegal action pass in turn 3"
    with use_locale("fr"):
        assert error.localized() == error.text.render("fr")
