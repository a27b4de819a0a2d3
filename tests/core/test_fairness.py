"""The commitment and the key of chance anyone can check, against values computed by hand
with the standard SHA-256 of the bytes docs/fairness.md spells out."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from splash.core.fairness import (
    ClientSeedError,
    check_client_seed,
    commitment,
    key_bytes,
    new_secret,
    room_key,
)

SECRET = bytes(range(32))


def test_the_commitment_is_the_sha256_of_the_domain_and_the_secret() -> None:
    by_hand = hashlib.sha256(b"splash/commit/1\x00" + SECRET).hexdigest()
    assert commitment(SECRET) == by_hand
    assert len(commitment(SECRET)) == 64 and commitment(SECRET) != commitment(SECRET[::-1])


def test_the_key_hashes_each_seat_s_seed_with_its_length_in_seat_order() -> None:
    by_hand = hashlib.sha256(
        b"splash/fair/1\x00"
        + SECRET
        + b"\x00\x00\x00\x03ann"
        + b"\x00\x00\x00\x00"
        + b"\x00\x00\x00\x02b!"
    ).digest()
    assert key_bytes(SECRET, ["ann", None, "b!"]) == by_hand
    assert room_key(SECRET, ["ann", None, "b!"]) == int.from_bytes(by_hand, "big")
    # The lengths keep seeds apart: ("ab", "c") is not ("a", "bc"); the order counts.
    assert room_key(SECRET, ["ab", "c"]) != room_key(SECRET, ["a", "bc"])
    assert room_key(SECRET, ["a", "b"]) != room_key(SECRET, ["b", "a"])


def test_a_256_bit_key_seeds_numpy_s_seed_sequence_as_a_room_seed_does() -> None:
    key = room_key(SECRET, ["x", "y"])
    assert key.bit_length() > 62
    first = np.random.default_rng(np.random.SeedSequence([key, 5, 1])).integers(1 << 30)
    again = np.random.default_rng(np.random.SeedSequence([key, 5, 1])).integers(1 << 30)
    other = np.random.default_rng(np.random.SeedSequence([key, 6, 1])).integers(1 << 30)
    assert first == again and first != other


@pytest.mark.parametrize("seed", ["a", "~" * 64, "hello world 42", " "])
def test_a_client_seed_of_printable_ascii_is_taken(seed: str) -> None:
    assert check_client_seed(seed) == seed


@pytest.mark.parametrize("seed", ["", "x" * 65, "é", "tab\there", "line\n"])
def test_any_other_client_seed_is_refused_by_name(seed: str) -> None:
    with pytest.raises(ClientSeedError, match="printable ASCII") as refused:
        check_client_seed(seed)
    assert refused.value.seed == seed


def test_secrets_are_256_bits_and_fresh() -> None:
    assert len(new_secret()) == 32 and new_secret() != new_secret()
