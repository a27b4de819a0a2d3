"""Write the game pages' sounds: ``src/splash/web/static/sounds/{roll,bump,fall}.wav``.

    python scripts/make_sounds.py

Each sound is synthesized (seeded, so the files come out the same every time): a die's
rattle, the thud of one pawn bumping another, the splash of a pawn or a tower falling.
16-bit mono at 16 kHz, each under a second and a few kilobytes.
"""

from __future__ import annotations

import wave
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt

RATE = 16_000
FOLDER = Path(__file__).resolve().parent.parent / "src" / "splash" / "web" / "static" / "sounds"

Samples = npt.NDArray[np.float64]


def _time(seconds: float) -> Samples:
    return np.arange(int(RATE * seconds)) / RATE


def _smooth(signal: Samples, width: int) -> Samples:
    """A moving average of ``width`` samples: a crude low-pass filter."""
    return np.convolve(signal, np.ones(width) / width, mode="same")


def roll(rng: np.random.Generator) -> Samples:
    """A die rattling on a table: clicks of filtered noise, closer and softer."""
    out = np.zeros(len(_time(0.4)))
    at = 0.0
    gap = 0.06
    loudness = 1.0
    for _ in range(9):
        start = int(at * RATE)
        click = rng.normal(size=int(0.018 * RATE)) * np.exp(-np.arange(int(0.018 * RATE)) / 50)
        click = click - _smooth(click, 6)
        out[start : start + len(click)] += loudness * click[: len(out) - start]
        at += gap * rng.uniform(0.7, 1.2)
        gap *= 0.8
        loudness *= 0.85
    return out


def bump(rng: np.random.Generator) -> Samples:
    """A dull thud: a low tone falling in pitch, with a knock of noise at its start."""
    t = _time(0.22)
    pitch = 140 * np.exp(-t * 6)
    tone = np.sin(2 * np.pi * np.cumsum(pitch) / RATE) * np.exp(-t * 22)
    knock = _smooth(rng.normal(size=len(t)), 8) * np.exp(-t * 90)
    return tone + 0.8 * knock


def fall(rng: np.random.Generator) -> Samples:
    """A splash: a burst of water noise that fades, and a few bubbles rising in pitch."""
    t = _time(0.6)
    noise = rng.normal(size=len(t))
    body = (noise - _smooth(noise, 3)) * 0.5 + _smooth(noise, 12) * 2.5
    splash = body * np.minimum(1, t / 0.015) * np.exp(-t * 7)
    bubbles = np.zeros(len(t))
    for start in (0.12, 0.2, 0.27, 0.36):
        local = t - start
        on = local >= 0
        pitch = 500 + 2200 * local[on]
        phase = 2 * np.pi * np.cumsum(pitch) / RATE
        bubbles[on] += np.sin(phase) * np.exp(-local[on] * 40) * 0.3
    return splash + bubbles


SOUNDS: dict[str, Callable[[np.random.Generator], Samples]] = {
    "roll": roll,
    "bump": bump,
    "fall": fall,
}


def write(path: Path, samples: Samples) -> None:
    """Write ``samples`` (any scale) to ``path`` as a 16-bit mono WAV, peaking at 80 %."""
    fade = np.minimum(1, (len(samples) - np.arange(len(samples))) / (0.01 * RATE))
    scaled = samples * fade / max(1e-9, float(np.max(np.abs(samples)))) * 0.8
    pcm = (scaled * 32767).astype("<i2")
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(pcm.tobytes())


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for seed, (name, make) in enumerate(SOUNDS.items()):
        path = FOLDER / f"{name}.wav"
        write(path, make(np.random.default_rng(seed)))
        print(f"{path.relative_to(FOLDER.parents[4])}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
