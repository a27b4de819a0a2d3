"""The Splash & Bash rules compiled with numba, checked against the reference engine.

Between the games and the bots: it imports :mod:`splash.core` and :mod:`splash.games.bash`
only.  :mod:`~splash.fast.tables` builds a configuration's tables (or refuses what the core
cannot express, naming the setting), :mod:`~splash.fast.kernel` holds the compiled rules,
:mod:`~splash.fast.batch` plays N games from seeds or K playouts from a position,
:mod:`~splash.fast.convert` turns a reference state into the core's arrays and
:mod:`~splash.fast.verify` replays a fast game through the reference engine and
:mod:`~splash.fast.afterstate` gives the after-states of many decisions at once (the
compiled loop in :mod:`~splash.fast.after_kernel`).  See ``docs/fast.md``.
"""
