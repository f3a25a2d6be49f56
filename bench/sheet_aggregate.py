"""``python -m bench.sheet_aggregate``: sums, averages and counts over a 50,000-row sheet.

A generated CSV of orders (region, quarter, product, status, units, revenue) is indexed as
a user indexes it, and questions that need a filter and an aggregate are answered by
:func:`treerag_core.answer.offline.aggregate.aggregate` (plain loops over the sheet's record
lines). Each answer is checked against the truth computed from the generated rows, and timed
cold (the records read from the sections' text) and warm (kept between questions, as the
app's ranking memory keeps them). Beside it, pandas on the same records (a DataFrame built
from them, then filtered and aggregated): whichever is faster is the one worth using.
Written to ``bench/results/sheet_aggregate.{json,md}``.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

from bench.record import write_results
from testkit.builders import ORDER_ROWS as ROWS
from testkit.builders import make_order_sheet

QUESTIONS = {
    "What was the total revenue of the North region in Q3?": (
        "sum", "Revenue", {"Region": "North", "Quarter": "Q3"}
    ),
    "What is the average revenue of the kettles?": ("average", "Revenue", {"Product": "Kettle"}),
    "How many orders were shipped late?": ("count", "", {"Status": "Late"}),
    "How many units of blenders were sold in the West region?": (
        "sum", "Units", {"Product": "Blender", "Region": "West"}
    ),
    "What was the total revenue of toasters in Q1?": (
        "sum", "Revenue", {"Product": "Toaster", "Quarter": "Q1"}
    ),
}  # fmt: skip


def truth(rows: list[dict], kind: str, measure: str, filters: dict) -> Decimal:
    chosen = [r for r in rows if all(r[k] == v for k, v in filters.items())]
    if kind == "count":
        return Decimal(len(chosen))
    total = Decimal(sum(r[measure] for r in chosen))
    return total / len(chosen) if kind == "average" else total


def with_pandas(records: list, kind: str, measure: str, filters: dict) -> tuple[float, float]:
    """The same aggregate with pandas, from the same records: (seconds to build, to answer)."""
    import pandas as pd

    started = time.perf_counter()
    frame = pd.DataFrame([cells for *_, cells, _page in records])
    frame["Units"] = pd.to_numeric(frame["Units"])
    frame["Revenue"] = pd.to_numeric(frame["Revenue"])
    built = time.perf_counter() - started
    started = time.perf_counter()
    mask = pd.Series(True, index=frame.index)
    for column, value in filters.items():
        mask &= frame[column] == value
    chosen = frame[mask]
    _ = (
        len(chosen)
        if kind == "count"
        else getattr(chosen[measure], "mean" if kind == "average" else "sum")()
    )
    return built, time.perf_counter() - started


def main() -> int:
    from treerag_core import index_document, make_summarizer
    from treerag_core.answer.offline.aggregate import aggregate, sheet_records

    folder = Path(tempfile.mkdtemp())
    rows = make_order_sheet(folder / "orders.csv")
    started = time.perf_counter()
    doc = index_document(
        str(folder / "orders.csv"), summarizer=make_summarizer(None),
        registry_path=str(folder / "registry.json"), verbose=False,
    )  # fmt: skip
    index_s = time.perf_counter() - started
    results = []
    for question, (kind, measure, filters) in QUESTIONS.items():
        started = time.perf_counter()
        cold = aggregate(question, doc)
        cold_s = time.perf_counter() - started
        records = sheet_records(doc)
        started = time.perf_counter()
        warm = aggregate(question, doc, records)
        warm_s = time.perf_counter() - started
        built_s, pandas_s = with_pandas(records, kind, measure, filters)
        want = truth(rows, kind, measure, filters)
        results.append(
            {
                "question": question,
                "right": cold is not None and warm is not None and cold.value == want == warm.value,
                "value": str(cold.value if cold else None),
                "truth": str(want),
                "cold_s": round(cold_s, 3),
                "warm_s": round(warm_s, 3),
                "pandas_build_s": round(built_s, 3),
                "pandas_s": round(pandas_s, 4),
            }
        )
    report = {
        "generated_at": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "rows": ROWS,
        "index_s": round(index_s, 1),
        "load_avg": os.getloadavg(),
        "cores": os.cpu_count(),
        "results": results,
    }
    lines = [
        "# Aggregates over a 50,000-row sheet (offline engine)",
        "",
        f"Generated {report['generated_at']} by `python -m bench.sheet_aggregate`: a generated "
        f"CSV of {ROWS:,} orders indexed in {report['index_s']} s; load average "
        f"{report['load_avg'][0]:.1f} on {report['cores']} cores. Cold = the records read from "
        "the sections' text; warm = kept from the question before. pandas = a DataFrame built "
        "from the same records (build time apart), then filtered and aggregated.",
        "",
        "| question | right | cold s | warm s | pandas build s | pandas s |",
        "|---|:---:|---:|---:|---:|---:|",
        *[
            f"| {r['question']} | {'yes' if r['right'] else 'NO'} | {r['cold_s']} | "
            f"{r['warm_s']} | {r['pandas_build_s']} | {r['pandas_s']} |"
            for r in results
        ],
        "",
    ]
    write_results("sheet_aggregate", report, lines)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
