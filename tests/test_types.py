"""mypy over the core (config in pyproject.toml): the library's annotations hold.

In the quick tier: a change that breaks a type fails here before review. mypy keeps its
cache in ``.mypy_cache`` (ignored by git), so a second run checks only what changed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_core_type_checks() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary", "--hide-error-context"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, "mypy treerag_core:\n" + (done.stdout + done.stderr)[-6000:]
