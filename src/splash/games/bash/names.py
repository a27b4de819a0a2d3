"""Readable, translatable names of lanes, decks and cards (identifiers stay the data's)."""

from __future__ import annotations

from splash.core.i18n import N_, Message

_NAMES = {
    "outer": N_("Outer"),
    "centre": N_("Centre"),
    "high_tide": N_("High tide"),
    "low_tide": N_("Low tide"),
    "calm_water": N_("Calm water"),
    "breeze": N_("Breeze"),
    "headwind": N_("Headwind"),
    "flip_flops": N_("Flip-flops"),
    "fish_bone": N_("Fish bone"),
    "towel_break": N_("Towel break"),
    "rogue_wave": N_("Rogue wave"),
    "undertow": N_("Undertow"),
    "shove": N_("Shove"),
    "second_chance": N_("Second chance"),
    "lifebuoy": N_("Lifebuoy"),
    "slide": N_("Slide"),
    "pawn": N_("pawn"),
    "helmsman": N_("helmsman"),
}


def name(identifier: str) -> Message:
    """The readable name of a lane, deck or card id (the id itself when it has none)."""
    return Message(_NAMES.get(identifier, identifier))
