"""The ``--help`` of ``splash`` and of every sub-command in the language of the messages.

The help texts are English msgids (``help=N_("...")``); they are translated when help is
shown, in the language ``--lang`` chose (given before the sub-command) or else ``LANG``.
The default panels ("Options", "Arguments", "Commands") are named through Typer's
``rich_help_panel``; the rest of Typer's and Click's own words (``Usage:``, ``[default: …]``,
``[required]``) stay English.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from splash.core.i18n import N_, normalise_locale, translations

if TYPE_CHECKING:
    from typer import _click

LANG_PARAMETER = "lang"
"""The name of the root command's ``--lang`` parameter."""

OPTIONS_PANEL = N_("Options")
ARGUMENTS_PANEL = N_("Arguments")
COMMANDS_PANEL = N_("Commands")
HELP_OPTION_HELP = N_("Show this message and exit.")
"""The help of ``--help`` itself (Click's own text, translated like ours)."""


def chosen_locale(lang: str | None) -> str:
    """The locale of the messages: ``lang`` (the ``--lang`` value) or else ``LANG``'s."""
    return normalise_locale(lang or os.environ.get("LANG"))


def help_locale(ctx: _click.Context) -> str:
    """The locale a help page shown in ``ctx`` is written in (``--lang`` is read from the
    root context when it has been parsed already)."""
    lang = ctx.find_root().params.get(LANG_PARAMETER)
    return chosen_locale(str(lang) if lang is not None else None)


def translate_help(command: _click.Command, locale: str, ctx: _click.Context) -> None:
    """Translate into ``locale`` the help of ``command`` and of every command below it: their
    ``help`` and ``short_help``, their parameters' ``help`` (``--help`` included) and the
    panels they are listed in.  Texts missing from the catalogue stay English; texts already
    translated are left as they are."""
    text = translations(locale).gettext
    if command.help:
        command.help = text(command.help)
    if command.short_help:
        command.short_help = text(command.short_help)
    if isinstance(command, TyperCommand | TyperGroup) and command.rich_help_panel is None:
        command.rich_help_panel = text(COMMANDS_PANEL)
    for param in command.get_params(ctx):
        if isinstance(param, TyperOption | TyperArgument):
            if param.help:
                param.help = text(param.help)
            if param.rich_help_panel is None:
                panel = OPTIONS_PANEL if isinstance(param, TyperOption) else ARGUMENTS_PANEL
                param.rich_help_panel = text(panel)
    if isinstance(command, TyperGroup):
        for sub_command in command.commands.values():
            translate_help(sub_command, locale, ctx)


class LocalisedGroup(TyperGroup):
    """The root group of ``splash``: its help, and that of every command below it, is shown
    in the chosen language.

    Its own help is translated when it is shown; a sub-command's tree is translated as soon
    as it is resolved, before its arguments (``--help`` among them) are parsed.
    """

    def format_help(self, ctx: _click.Context, formatter: _click.HelpFormatter) -> None:
        """Translate the help texts, then write them as Typer does."""
        translate_help(self, help_locale(ctx), ctx)
        super().format_help(ctx, formatter)

    def resolve_command(
        self, ctx: _click.Context, args: list[str]
    ) -> tuple[str | None, _click.Command | None, list[str]]:
        """Find the sub-command as Typer does, and translate its help."""
        name, command, rest = super().resolve_command(ctx, args)
        if command is not None:
            translate_help(command, help_locale(ctx), ctx)
        return name, command, rest
