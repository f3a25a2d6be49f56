"""Pure functions: medians, ratios, target checks and the Markdown/console table.

Kept free of I/O and subprocesses so the tests can check the arithmetic directly.
"""

from __future__ import annotations

import statistics
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Figure:
    """One row: our median, treerag's median (same inputs, same run) and the ratio."""

    name: str
    unit: str
    ours: float | None
    treerag: float | None
    ours_runs: list[float] = field(default_factory=list)
    treerag_runs: list[float] = field(default_factory=list)
    target: str = ""
    met: bool | None = None
    note: str = ""

    @property
    def ratio(self) -> float | None:
        return ratio(self.ours, self.treerag)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["ratio_ours_over_treerag"] = None if self.ratio is None else round(self.ratio, 4)
        return data


def median(values: list[float | None]) -> float | None:
    """Median of the successful runs; ``None`` when none succeeded."""
    good = [v for v in values if v is not None]
    return statistics.median(good) if good else None


def ratio(ours: float | None, theirs: float | None) -> float | None:
    if ours is None or theirs is None or theirs == 0:
        return None
    return ours / theirs


def field_of(results: list[dict[str, Any]], key: str, scale: float = 1.0) -> list[float | None]:
    """One numeric field of each worker result (``None`` for failed runs)."""
    out: list[float | None] = []
    for result in results:
        value = result.get(key)
        out.append(None if value is None or "error" in result else float(value) * scale)
    return out


def first_error(results: list[dict[str, Any]]) -> str:
    return next((str(r["error"]) for r in results if "error" in r), "")


def parallel_efficiency(serial_s: float | None, workers: int, wall_s: float | None) -> float | None:
    """serial time / (workers × wall time): 1.0 means every worker was busy all the time.

    Capped by the work available: with fewer calls than workers no run can reach 1.0, so
    callers pick a call count that is a multiple of every worker count.
    """
    if serial_s is None or wall_s is None or wall_s <= 0 or workers <= 0:
        return None
    return serial_s / (workers * wall_s)


def check(value: float | None, limit: float, higher_is_better: bool = False) -> bool | None:
    if value is None:
        return None
    return value >= limit if higher_is_better else value <= limit


def fmt(value: float | None, unit: str) -> str:
    """Readable number for the table: ms below a second, MB/×/tokens as such."""
    if value is None:
        return "—"
    if unit == "s":
        return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"
    if unit == "MB":
        return f"{value:,.1f} MB"
    if unit == "x":
        return f"{value:.2f}×"
    if unit in {"chars", "tokens", "calls"}:
        return f"{value:,.0f} {unit}"
    if unit == "count":
        return f"{value:,.0f}"
    return f"{value:.3g}"


def table(figures: list[Figure]) -> str:
    """The Markdown table printed to the console and written to speed.md."""
    head = "| figure | ours | treerag 0.1.5 | ours / treerag | target | met |"
    lines = [head, "|---|---:|---:|---:|---|:---:|"]
    for f in figures:
        r = f.ratio
        met = {True: "yes", False: "**no**", None: ""}[f.met]
        name = f.name + (f" ({f.note})" if f.note else "")
        lines.append(
            f"| {name} | {fmt(f.ours, f.unit)} | {fmt(f.treerag, f.unit)} | "
            f"{'—' if r is None else f'{r:.3g}'} | {f.target} | {met} |"
        )
    return "\n".join(lines)
