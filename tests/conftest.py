"""Shared fixtures for the tests."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

# Solved tables and built turns go to a fresh cache directory for the session (subprocesses
# inherit it): tests never read what an older version left, nor write into the user's cache.
os.environ["DICE_SOLVER_CACHE"] = tempfile.mkdtemp(prefix="dice-solver-tests-")
atexit.register(shutil.rmtree, os.environ["DICE_SOLVER_CACHE"], True)
