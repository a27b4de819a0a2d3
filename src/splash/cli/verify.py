"""``splash verify``: check that a finished game's chance is the one its room committed to
(:mod:`splash.server.verify`), from a replay file or its address on a server."""

from __future__ import annotations

import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.text import Text

from splash.cli.common import guarded, make_console, read_record
from splash.core.documents import Field, parse_json
from splash.core.errors import DocumentError
from splash.core.i18n import N_, message
from splash.core.record import GameRecord
from splash.server.verify import VerifyError, verify

DIFFERS_EXIT = 1
"""The exit code when the replay differs from what its reveal derives."""
FETCH_TIMEOUT_S = 30.0
"""How long fetching a replay may take."""
MOST_BYTES = 64 * 1024 * 1024
"""The largest replay fetched."""


def replay_address(source: str) -> str:
    """The address of the replay ``source`` names: a replay's own address as it is, or the
    page of a game (``…/static/bash.html?room=ID``) turned into its replay's."""
    parts = urllib.parse.urlsplit(source)
    room = urllib.parse.parse_qs(parts.query).get("room")
    if parts.path.startswith("/static/") and room:
        path = f"/api/rooms/{urllib.parse.quote(room[0])}/replay"
        return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, "", ""))
    return source


def fetch_record(source: str) -> GameRecord:
    """The replay at address ``source``, fetched; :class:`DocumentError` saying why not."""
    address = replay_address(source)
    try:
        with urllib.request.urlopen(address, timeout=FETCH_TIMEOUT_S) as answer:
            body = answer.read(MOST_BYTES + 1)
    except urllib.error.HTTPError as error:
        raise DocumentError(
            message(
                "{address} answered {status}: {reason}",
                address=address,
                status=error.code,
                reason=error.read(400).decode("utf-8", "replace") or error.reason,
            )
        ) from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", None) or error
        raise DocumentError(
            message("cannot fetch {address}: {reason}", address=address, reason=str(reason))
        ) from None
    if len(body) > MOST_BYTES:
        raise DocumentError(
            message("{address} is larger than {most} MiB", address=address, most=MOST_BYTES >> 20)
        )
    doc = parse_json(body, what=message("the replay at {address}", address=address))
    return GameRecord.from_json(Field.root(doc).as_object())


def verify_command(
    replay: Annotated[
        str,
        typer.Argument(
            metavar="REPLAY",
            help=N_(
                "A replay file (JSON), or its address: http://host/api/rooms/ID/replay or the"
                " game's page."
            ),
            show_default=False,
        ),
    ],
) -> None:
    """Check a finished game's commitment, then derive again each draw, ruling and bot
    decision of its replay; the last line says ok or names the first difference."""
    console = make_console()
    with guarded():
        is_address = urllib.parse.urlsplit(replay).scheme in ("http", "https")
        record = fetch_record(replay) if is_address else read_record(Path(replay))
        bar = Progress(
            TextColumn(message("Checking").render()),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=make_console(stderr=True),
            transient=True,
        )
        try:
            with bar:
                task = bar.add_task("", total=len(record.actions))
                verified = verify(record, progress=lambda _index: bar.advance(task))
        except VerifyError as error:
            where = f" at action {error.index}" if error.index is not None else ""
            console.print(
                Text(f"verify: {error.kind}{where}: {error.why.render()}"), soft_wrap=True
            )
            raise typer.Exit(DIFFERS_EXIT) from None
    console.print(Text(verified.line()), soft_wrap=True)


__all__ = ["DIFFERS_EXIT", "fetch_record", "replay_address", "verify_command"]
