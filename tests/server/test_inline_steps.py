"""Which automatic moves the server plays on its event loop: what the bots' registry
declares light (:attr:`splash.bots.BotSpec.light`), never a physics ruling."""

from __future__ import annotations

import dataclasses

import pytest

import splash.bots
from splash.server.rules import runs_inline


def test_a_light_bot_and_a_chance_draw_run_inline_a_heavy_bot_does_not() -> None:
    assert runs_inline(("bot", "random"), physics=False)
    assert runs_inline(("chance", None), physics=False)
    assert not runs_inline(("bot", "greedy:depth=2"), physics=False)
    assert not runs_inline(("bot", None), physics=False)


def test_nothing_runs_inline_in_a_room_with_the_physics() -> None:
    assert not runs_inline(("bot", "random"), physics=True)
    assert not runs_inline(("chance", None), physics=True)


def test_the_registry_s_light_flag_drives_the_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    flipped = tuple(dataclasses.replace(bot, light=not bot.light) for bot in splash.bots.BOTS)
    monkeypatch.setattr(splash.bots, "BOTS", flipped)
    assert runs_inline(("bot", "greedy:depth=2"), physics=False)
    assert not runs_inline(("bot", "random"), physics=False)
