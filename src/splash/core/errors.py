"""The error hierarchy: every error carries the input that caused it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from splash.core.i18n import Message, message


class SplashError(Exception):
    """Base of every error the project raises on purpose.

    ``str(error)`` is English; :meth:`localized` renders it for a person in any locale.
    """

    def __init__(self, text: Message) -> None:
        self.text = text
        super().__init__(text.render("en"))

    def localized(self, locale: str | None = None) -> str:
        """The message in ``locale`` (default: the current locale)."""
        return self.text.render(locale)


class ConfigError(SplashError):
    """Options or data that cannot make a game."""


class OptionError(ConfigError):
    """An option or ``--set KEY=VALUE`` assignment that is wrong."""

    def __init__(self, key: str, value: object, problem: Message) -> None:
        self.key = key
        self.value = value
        self.problem = problem
        super().__init__(
            message("{key}={value!r}: {problem}", key=key, value=value, problem=problem)
        )


class DataFileError(ConfigError):
    """A data file (board, deck, catalogue) that fails validation."""

    def __init__(self, file: str, entry: str | None, field: str | None, problem: Message) -> None:
        self.file = file
        self.entry = entry
        """The entry (a card, a shape) at fault, or ``None``: the whole file."""
        self.field = field
        """The field of the entry (or of the file) at fault, or ``None``."""
        self.problem = problem
        if entry is not None and field is not None:
            text = message(
                "{file}: entry {entry!r}, field {field!r}: {problem}",
                file=file,
                entry=entry,
                field=field,
                problem=problem,
            )
        elif entry is not None or field is not None:
            text = message(
                "{file}: {where!r}: {problem}", file=file, where=entry or field, problem=problem
            )
        else:
            text = message("{file}: {problem}", file=file, problem=problem)
        super().__init__(text)


class ActionError(SplashError):
    """An action that cannot be applied."""


class MalformedActionError(ActionError):
    """An action document or id that names no action of the game."""

    def __init__(self, payload: object, problem: Message) -> None:
        self.payload = payload
        self.problem = problem
        super().__init__(
            message("malformed action {payload!r}: {problem}", payload=payload, problem=problem)
        )


class IllegalActionError(ActionError):
    """A well-formed action that the rules do not allow now.

    ``state`` is the public description of the state, never hidden information.
    """

    def __init__(self, action: object, state: str, reason: Message | None = None) -> None:
        self.action = action
        self.state = state
        self.reason = reason
        if reason is None:
            text = message("illegal action {action} in {state}", action=action, state=state)
        else:
            text = message(
                "illegal action {action} in {state}: {reason}",
                action=action,
                state=state,
                reason=reason,
            )
        super().__init__(text)


class DocumentError(SplashError):
    """A saved or exchanged document that cannot be read.

    ``path`` names the offending field (``tower[3].support``; empty for the document itself)
    and ``value`` is what was found there, when the error is about one field.
    """

    def __init__(
        self,
        problem: Message,
        document: Mapping[str, Any] | None = None,
        *,
        path: str | None = None,
        value: object = None,
    ) -> None:
        self.document = document
        self.path = path
        self.value = value
        super().__init__(problem)


class UnsupportedFormatError(DocumentError):
    """A document whose format tag or version this version of splash does not read."""

    def __init__(self, found: object, expected: str) -> None:
        self.found = found
        self.expected = expected
        super().__init__(
            message(
                "unsupported document format {found!r} (expected {expected})",
                found=found,
                expected=expected,
            )
        )


class OutcomeError(SplashError):
    """An outcome provider that cannot supply the outcome of a chance event."""
