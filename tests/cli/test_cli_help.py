"""``--help`` in the language of ``--lang`` (before the sub-command) or else of ``LANG``."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
import typer
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from typer.core import TyperArgument, TyperGroup, TyperOption
from typer.testing import CliRunner, Result

from splash.cli import main as cli_main
from splash.cli.help_text import LocalisedGroup
from splash.cli.main import app
from splash.core.i18n import translations

CLI_SOURCE = Path(cli_main.__file__).parent
LANG_HELP = "Language of the messages (default: from LANG)."
GAMES_HELP = "Games each pair of bots plays."
GAME_ARGUMENT_HELP = "The game, by its id (the choices listed)."
TEAM_HELP = "Your team: a letter A to D or a number from 1 (A plays first)."
BASH_HELP = "Splash & Bash: play against bots, referee a game at the pool, simulate."


def run(*args: str, lang: str = "en_GB.UTF-8") -> Result:
    """``splash ARGS`` in a terminal wide enough that no help text is wrapped."""
    runner = CliRunner(env={"COLUMNS": "250", "LANG": lang})
    return runner.invoke(app, list(args), catch_exceptions=False)


def translated(locale: str, msgid: str) -> str:
    """The catalogue's translation of ``msgid``, which the test needs to differ from it."""
    text = translations(locale).gettext(msgid)
    assert text != msgid, f"{msgid!r} is not translated in {locale} yet"
    return text


def test_lang_fr_translates_the_root_help() -> None:
    result = run("--lang", "fr", "--help")
    assert result.exit_code == 0
    assert "Langue des messages (par défaut : d'après LANG)." in result.output
    assert translated("fr", "Print the version and stop.") in result.output
    assert LANG_HELP not in result.output


def test_lang_fr_translates_the_short_help_of_the_listed_commands() -> None:
    result = run("--lang", "fr", "--help")
    assert translated("fr", BASH_HELP) in result.output
    assert BASH_HELP not in result.output


def test_the_lang_variable_chooses_czech_when_lang_is_not_given() -> None:
    result = run("--help", lang="cs_CZ.UTF-8")
    assert result.exit_code == 0
    assert translated("cs", LANG_HELP) in result.output
    assert LANG_HELP not in result.output


def test_lang_wins_over_the_lang_variable() -> None:
    result = run("--lang", "en", "--help", lang="fr_FR.UTF-8")
    assert LANG_HELP in result.output
    assert translated("fr", LANG_HELP) not in result.output


def test_english_stays_english() -> None:
    result = run("--help")
    assert result.exit_code == 0
    assert LANG_HELP in result.output
    assert BASH_HELP in result.output
    for locale in ("fr", "cs", "it"):
        assert translated(locale, LANG_HELP) not in result.output


def test_a_sub_command_s_options_and_arguments_follow_lang_given_before_it() -> None:
    result = run("--lang", "fr", "ladder", "--help")
    assert result.exit_code == 0
    assert translated("fr", GAMES_HELP) in result.output
    assert translated("fr", GAME_ARGUMENT_HELP) in result.output
    assert GAMES_HELP not in result.output


def test_a_sub_command_s_options_follow_the_lang_variable() -> None:
    result = run("ladder", "--help", lang="cs_CZ.UTF-8")
    assert result.exit_code == 0
    assert translated("cs", GAMES_HELP) in result.output
    assert GAMES_HELP not in result.output


def test_a_command_of_a_game_group_is_translated() -> None:
    result = run("--lang", "it", "bash", "play", "--help")
    assert result.exit_code == 0
    assert translated("it", TEAM_HELP) in result.output
    assert TEAM_HELP not in result.output


def test_a_game_group_shown_for_lack_of_a_command_is_translated() -> None:
    result = run("bash", lang="fr_FR.UTF-8")
    assert translated("fr", BASH_HELP) in result.output


def test_one_invocation_s_language_does_not_stay_for_the_next() -> None:
    assert translated("fr", GAMES_HELP) in run("--lang", "fr", "ladder", "--help").output
    english = run("ladder", "--help").output
    assert GAMES_HELP in english
    assert translated("fr", GAMES_HELP) not in english


def test_the_console_script_shows_the_translated_help(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.argv", ["splash", "--lang", "fr", "ladder", "--help"])
    monkeypatch.setenv("COLUMNS", "250")
    with pytest.raises(SystemExit) as stop:
        cli_main.main()
    assert stop.value.code == 0
    assert translated("fr", GAMES_HELP) in capsys.readouterr().out


UNKNOWN = "A help text that no catalogue holds."


def test_a_text_missing_from_the_catalogue_is_shown_in_english() -> None:
    small = typer.Typer(cls=LocalisedGroup, help=UNKNOWN)

    @small.command(help=UNKNOWN)
    def first(count: int = typer.Option(1, help=UNKNOWN)) -> None:
        """Nothing."""

    @small.command(help=UNKNOWN)
    def second() -> None:
        """Nothing."""

    result = CliRunner(env={"COLUMNS": "250", "LANG": "fr_FR.UTF-8"}).invoke(
        small, ["first", "--help"], catch_exceptions=False
    )
    assert result.exit_code == 0
    assert UNKNOWN in result.output


@cache
def cli_msgids() -> frozenset[str]:
    """Every msgid marked in the command-line package, as the catalogues' extraction sees it."""
    keywords = {**DEFAULT_KEYWORDS, "N_": None, "message": None}
    found = extract_from_dir(str(CLI_SOURCE), keywords=keywords)
    return frozenset(m if isinstance(m, str) else m[0] for _, _, m, _, _ in found)


def commands(group: TyperGroup, path: str = "splash") -> Iterator[tuple[str, typer.Context]]:
    """Every command below ``group`` with a context to ask it for its parameters."""
    for name, command in group.commands.items():
        ctx = typer.Context(command, info_name=f"{path} {name}")
        yield f"{path} {name}", ctx
        if isinstance(command, TyperGroup):
            yield from commands(command, f"{path} {name}")


def test_every_help_text_is_a_marked_message() -> None:
    root = typer.main.get_command(app)
    assert isinstance(root, TyperGroup)
    texts: dict[str, str | None] = {}
    for path, ctx in [("splash", typer.Context(root, info_name="splash")), *commands(root)]:
        texts[path] = ctx.command.help
        for param in ctx.command.get_params(ctx):
            assert isinstance(param, TyperOption | TyperArgument)
            texts[f"{path} {param.name}"] = param.help
    unmarked = {where: text for where, text in texts.items() if text not in cli_msgids()}
    assert unmarked == {}
    assert len(texts) > 80
