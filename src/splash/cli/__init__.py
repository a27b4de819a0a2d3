"""The command line: ``splash bash play | referee | simulate`` (the top layer).

The games are read first: a game that ``SPLASH_GAMES`` or an entry point names and that
cannot be loaded (:mod:`splash.games.plugins`) ends the command with the error's message,
never a traceback.
"""

from splash.core.errors import SplashError

try:
    import splash.games  # noqa: F401  (the registry of games, read before any command)
except SplashError as error:
    raise SystemExit(f"splash: {error.localized()}") from None
