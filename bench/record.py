"""The one writer of ``bench/results/``: every benchmark's latest run, as JSON for programs
(``bench/README.md``'s headlines, the docs' tables) and Markdown for people, side by side.

One format for all of them, so a reader of one results file can read any: JSON indented by
one space, UTF-8 as written (not ``\\u`` escapes), values JSON has no type for (paths,
dates) as their text, one newline at the end of each file.
"""

from __future__ import annotations

import json
import os
import platform
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"


def write_results(
    name: str, data: dict[str, Any], markdown: str | list[str], folder: Path = RESULTS
) -> tuple[Path, Path]:
    """Write ``folder/<name>.json`` and ``folder/<name>.md`` (the latest run only: a run
    replaces the last); returns both paths. ``markdown`` is the text or its lines."""
    folder.mkdir(parents=True, exist_ok=True)
    json_path = folder / f"{name}.json"
    json_path.write_text(as_json(data), encoding="utf-8")
    return json_path, write_markdown(name, markdown, folder)


def write_markdown(name: str, markdown: str | list[str], folder: Path = RESULTS) -> Path:
    """``folder/<name>.md`` alone: for a page with no figures of its own (a transcript)."""
    folder.mkdir(parents=True, exist_ok=True)
    text = markdown if isinstance(markdown, str) else "\n".join(markdown)
    path = folder / f"{name}.md"
    path.write_text(text.rstrip("\n") + "\n", encoding="utf-8")
    return path


def as_json(data: dict[str, Any]) -> str:
    """The results JSON exactly as :func:`write_results` writes it."""
    return json.dumps(data, indent=1, ensure_ascii=False, default=str) + "\n"


def read_results(name: str, folder: Path = RESULTS) -> dict[str, Any]:
    """The latest run's figures of ``name`` (``eval``, ``structure``, …)."""
    return json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))


def machine() -> dict[str, Any]:
    """What the numbers were measured on (kept in the results beside the figures)."""
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        mem_kb = int(Path("/proc/meminfo").read_text().split()[1])
    except (OSError, ValueError, IndexError):
        mem_kb = 0
    return {
        "platform": platform.platform(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_gb": round(mem_kb / 1024 / 1024, 1),
        "python": platform.python_version(),
        "load_avg_at_start": os.getloadavg(),
    }
