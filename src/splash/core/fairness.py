"""Chance anyone can check: the commitment a room shows before play, and the key its draws
come from once every person has added a seed of their own.

A room draws a secret of :data:`SECRET_BYTES` random bytes when it is created and shows only
its :func:`commitment`, ``SHA-256(COMMIT_DOMAIN ‖ secret)`` in hex.  Each person adds a
client seed when taking a seat (:func:`check_client_seed`: 1 to 64 printable ASCII
characters); bots add nothing.  The room's key is then::

    SHA-256(KEY_DOMAIN ‖ secret ‖ for each seat in seat order: u32 big-endian length ‖ UTF-8 seed)

read as a big-endian integer (:func:`room_key`); a seat without a seed counts as the empty
string.  Every outcome is drawn from ``numpy.random.SeedSequence([key, index, stream, …])``,
as the rooms draw from their seed.  Neither the server, which commits to the secret before
any seed is known, nor a person, who does not know the secret, can choose the key; once the
game ends the secret is revealed and anyone can recompute the commitment and the key with
any SHA-256 tool (docs/fairness.md).
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from splash.core.actions import Json
from splash.core.documents import Field
from splash.core.errors import SplashError
from splash.core.i18n import message

COMMIT_DOMAIN: Final = b"splash/commit/1\0"
"""The bytes before the secret in the commitment (domain separation)."""
KEY_DOMAIN: Final = b"splash/fair/1\0"
"""The bytes before the secret and the seeds in the key."""
DERIVATION: Final = "splash/fair/1"
"""The name and version of the derivation, as a replay records it."""
SEED_DERIVATION: Final = "splash/seed/1"
"""The derivation of a room without a secret (stored before rooms committed, or a referee
room without digital events): its draws come from a seed the server chose alone, shown at
the end."""
SECRET_BYTES: Final = 32
"""The length of a room's secret: 256 bits."""
SEED_MAX: Final = 64
"""The longest client seed, in characters."""


class ClientSeedError(SplashError):
    """A client seed that is not 1 to :data:`SEED_MAX` printable ASCII characters."""

    def __init__(self, seed: str) -> None:
        self.seed = seed
        super().__init__(
            message(
                "a client seed is 1 to {most} printable ASCII characters (space to ~), not {seed!r}",
                most=SEED_MAX,
                seed=seed[: SEED_MAX + 8],
            )
        )


def new_secret() -> bytes:
    """A fresh secret for a room, from the operating system's generator."""
    return secrets.token_bytes(SECRET_BYTES)


def commitment(secret: bytes) -> str:
    """The hex SHA-256 of :data:`COMMIT_DOMAIN` followed by ``secret``."""
    return hashlib.sha256(COMMIT_DOMAIN + secret).hexdigest()


def check_client_seed(seed: str) -> str:
    """``seed`` when it is 1 to :data:`SEED_MAX` printable ASCII characters (``' '`` to
    ``'~'``); else :class:`ClientSeedError`."""
    if not 1 <= len(seed) <= SEED_MAX or any(not " " <= c <= "~" for c in seed):
        raise ClientSeedError(seed)
    return seed


def key_bytes(secret: bytes, seeds: Sequence[str | None]) -> bytes:
    """The SHA-256 of :data:`KEY_DOMAIN`, ``secret`` and each seat's seed (``None``: a bot's
    or a seat's without one, the empty string) as a 4-byte big-endian length and its UTF-8."""
    digest = hashlib.sha256(KEY_DOMAIN + secret)
    for seed in seeds:
        encoded = (seed or "").encode("utf-8")
        digest.update(struct.pack(">I", len(encoded)) + encoded)
    return digest.digest()


def room_key(secret: bytes, seeds: Sequence[str | None]) -> int:
    """The key a room's draws come from: :func:`key_bytes` read as a big-endian integer."""
    return int.from_bytes(key_bytes(secret, seeds), "big")


@dataclass(frozen=True)
class SeatRecord:
    """Who played a seat, as the reveal lists it: its ``kind`` (``human``, ``bot``), its
    bot's spec, and the client seed its person added."""

    seat: int
    kind: str
    bot: str | None = None
    client_seed: str | None = None

    def to_json(self) -> dict[str, Json]:
        """``{"seat", "kind", "bot", "client_seed"}``."""
        return {
            "seat": self.seat,
            "kind": self.kind,
            "bot": self.bot,
            "client_seed": self.client_seed,
        }


@dataclass(frozen=True)
class Reveal:
    """Everything a checker needs to re-derive a finished game's chance, as its replay
    holds it under ``meta.fairness``: the commitment shown before play and the secret it
    commits to (``None`` for a room without one, which names its ``seed`` instead), the
    derivation, the room's mode, settings and options, its seats, and the versions of the
    software (and the processor) that served it."""

    derivation: str
    commitment: str | None
    secret: str | None
    seed: int | None
    mode: str
    settings: tuple[str, ...]
    timer_bot: str
    digital: tuple[str, ...]
    seats: tuple[SeatRecord, ...]
    versions: Mapping[str, str] = field(default_factory=dict)
    machine: str = ""

    def key(self) -> int:
        """The key the room's draws came from: :func:`room_key` of the secret and the
        seats' seeds, or the room's seed when it had no secret."""
        if self.secret is None:
            return self.seed or 0
        return room_key(bytes.fromhex(self.secret), [s.client_seed for s in self.seats])

    def to_json(self) -> dict[str, Json]:
        """The ``meta.fairness`` document."""
        return {
            "derivation": self.derivation,
            "commitment": self.commitment,
            "secret": self.secret,
            "seed": self.seed,
            "mode": self.mode,
            "settings": list(self.settings),
            "options": {"timer_bot": self.timer_bot, "digital": list(self.digital)},
            "seats": [s.to_json() for s in self.seats],
            "versions": dict(self.versions),
            "machine": self.machine,
        }

    @staticmethod
    def parse(doc: object, path: str = "meta.fairness") -> Reveal:
        """The reveal ``doc`` holds; :class:`~splash.core.errors.DocumentError` naming the
        field when it is not one."""
        root = Field(doc, path)
        root.as_object()
        secret = root["secret"].optional_str()
        if secret is not None and (
            len(secret) != 2 * SECRET_BYTES or any(c not in "0123456789abcdef" for c in secret)
        ):
            root["secret"].fail(message("a secret is {n} lowercase hex digits", n=2 * SECRET_BYTES))
        options = root["options"]
        options.as_object()
        return Reveal(
            derivation=root["derivation"].one_of((DERIVATION, SEED_DERIVATION)),
            commitment=root["commitment"].optional_str(),
            secret=secret,
            seed=root.get("seed").optional_int(),
            mode=root["mode"].as_str(),
            settings=tuple(f.as_str() for f in root["settings"].as_list()),
            timer_bot=options["timer_bot"].as_str(),
            digital=tuple(f.as_str() for f in options["digital"].as_list()),
            seats=tuple(
                SeatRecord(
                    seat=s["seat"].as_int(),
                    kind=s["kind"].as_str(),
                    bot=s.get("bot").optional_str(),
                    client_seed=s.get("client_seed").optional_str(),
                )
                for s in root["seats"].as_list()
            ),
            versions={k: v.as_str() for k, v in root.get("versions", {}).members()},
            machine=root.get("machine", "").as_str(),
        )
