"""Reports on simulated games, free of any game engine's internals where they can be.

- :mod:`splash.sim.stats` (of the simulator, which reads no report): intervals, tests and Elo
  ratings shared by every report;
- :mod:`splash.report.html`: self-contained HTML pages with embedded plots;
- :mod:`splash.report.results`: results files of ``splash simulate`` read and checked;
- :mod:`splash.report.metrics`: the designer metrics Ludii popularised;
- :mod:`splash.report.balance`: the designer's balance report (``splash report``), built from
  :mod:`~splash.report.outcomes`, :mod:`~splash.report.designer`,
  :mod:`~splash.report.bash_sections` and :mod:`~splash.report.tower_sections`.
"""
