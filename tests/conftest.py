"""Test settings shared by the whole suite.

Property tests draw their examples from a fixed seed, so that a run is repeatable; set
``HYPOTHESIS_PROFILE=explore`` to search with fresh random examples, ten times as many.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("repeatable", derandomize=True, deadline=None, max_examples=6)
settings.register_profile("explore", derandomize=False, deadline=None, max_examples=60)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))
