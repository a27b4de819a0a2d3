"""The game protocol, actions, chance, outcome providers, records, errors and translations."""

from splash.core.actions import Action, ActionSpace, Json, JsonScalar, make_action
from splash.core.errors import (
    ActionError,
    ConfigError,
    DataFileError,
    DocumentError,
    IllegalActionError,
    MalformedActionError,
    OptionError,
    OutcomeError,
    SplashError,
    UnsupportedFormatError,
)
from splash.core.outcomes import (
    OutcomeProvider,
    RandomOutcomes,
    RefereeOutcomes,
    RoutedOutcomes,
    ScriptedOutcomes,
)
from splash.core.play import Agent, play, step
from splash.core.protocol import CHANCE, TERMINAL, ChanceEvent, Game, State, Team
from splash.core.record import GameRecord

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "ActionError",
    "ActionSpace",
    "Agent",
    "ChanceEvent",
    "ConfigError",
    "DataFileError",
    "DocumentError",
    "Game",
    "GameRecord",
    "IllegalActionError",
    "Json",
    "JsonScalar",
    "MalformedActionError",
    "OptionError",
    "OutcomeError",
    "OutcomeProvider",
    "RandomOutcomes",
    "RefereeOutcomes",
    "RoutedOutcomes",
    "ScriptedOutcomes",
    "SplashError",
    "State",
    "Team",
    "UnsupportedFormatError",
    "make_action",
    "play",
    "step",
]
