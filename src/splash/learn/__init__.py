"""Learned evaluations of Splash & Bash positions, trained by self-play on the compiled core.

Between the compiled core and the bots: it imports :mod:`splash.core`,
:mod:`splash.games.bash` and :mod:`splash.fast` only, so that a bot may use what it learns.
:mod:`~splash.learn.td` holds a small value network and its TD(λ) self-play learner on the
after-states of :mod:`splash.games.bash.afterstate`.
"""
