"""Translation of messages meant for people (gettext catalogues read with Babel).

Every sentence a person reads goes through a :class:`Message`: its ``msgid`` is the English
text with ``{name}`` placeholders, rendered in the locale in force when it is shown.  The
catalogues live in ``splash/locale/<locale>/LC_MESSAGES/splash.po``.
"""

from __future__ import annotations

import contextlib
import gettext
import io
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

DOMAIN = "splash"
LOCALES: tuple[str, ...] = ("en", "fr", "cs", "it")
DEFAULT_LOCALE = "en"

_current: ContextVar[str] = ContextVar("splash_locale", default=DEFAULT_LOCALE)


def catalogue_path(locale: str) -> resources.abc.Traversable:
    """Where the ``.po`` catalogue of ``locale`` lies inside the package."""
    return resources.files("splash") / "locale" / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(locale: str) -> gettext.NullTranslations:
    """The gettext translations of ``locale`` (English, the source language, when unknown)."""
    if locale not in LOCALES:
        locale = DEFAULT_LOCALE
    path = catalogue_path(locale)
    if not path.is_file():
        return gettext.NullTranslations()
    with path.open("rb") as po:
        catalog = read_po(po, locale=locale, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def normalise_locale(value: str | None) -> str:
    """The supported locale closest to ``value`` (``fr_FR.UTF-8`` → ``fr``)."""
    if not value:
        return DEFAULT_LOCALE
    short = value.replace("-", "_").split(".")[0].split("_")[0].lower()
    return short if short in LOCALES else DEFAULT_LOCALE


def current_locale() -> str:
    """The locale messages are rendered in now."""
    return _current.get()


def set_locale(locale: str) -> None:
    """Render messages in ``locale`` from now on (in this context)."""
    _current.set(normalise_locale(locale))


@contextlib.contextmanager
def use_locale(locale: str) -> Iterator[None]:
    """Render messages in ``locale`` inside the ``with`` block."""
    token = _current.set(normalise_locale(locale))
    try:
        yield
    finally:
        _current.reset(token)


def N_(msgid: str) -> str:
    """Mark ``msgid`` for extraction without translating it yet."""
    return msgid


def _(msgid: str) -> str:
    """Translate ``msgid`` into the current locale."""
    return translations(current_locale()).gettext(msgid)


@dataclass(frozen=True)
class Message:
    """A sentence for people: an English ``msgid`` with placeholders and their values.

    Values that are themselves messages are rendered in the same locale.
    """

    msgid: str
    params: Mapping[str, object] = field(default_factory=dict)

    def render(self, locale: str | None = None) -> str:
        """The text in ``locale`` (default: the current locale)."""
        loc = normalise_locale(locale) if locale else current_locale()
        text = translations(loc).gettext(self.msgid)
        values = {
            key: value.render(loc) if isinstance(value, Message) else value
            for key, value in self.params.items()
        }
        try:
            return text.format(**values)
        except (KeyError, IndexError, ValueError):
            return self.msgid.format(**values)

    def __str__(self) -> str:
        return self.render()


def message(msgid: str, **params: object) -> Message:
    """Shorthand for ``Message(msgid, params)``."""
    return Message(msgid, params)
