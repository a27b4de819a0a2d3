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
from collections.abc import Sequence
from typing import Final

from splash.core.errors import SplashError
from splash.core.i18n import message

COMMIT_DOMAIN: Final = b"splash/commit/1\0"
"""The bytes before the secret in the commitment (domain separation)."""
KEY_DOMAIN: Final = b"splash/fair/1\0"
"""The bytes before the secret and the seeds in the key."""
DERIVATION: Final = "splash/fair/1"
"""The name and version of the derivation, as a replay records it."""
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
