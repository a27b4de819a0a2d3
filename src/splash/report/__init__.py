"""Reports on simulated games: the statistics of win rates, tests and ratings
(:mod:`splash.report.stats`), free of any game so that every report can share them."""
