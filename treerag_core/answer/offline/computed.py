"""The offline engine's computed answer: the result first, its working beneath, each cell cited.

A question asking for a ratio, a margin, a change, an average over years or a CAGR is
answered by computing it (:mod:`.compute`) from cells of the documents' tables
rather than by copying the best-matching row. The first line is the result with its label,
period and unit, and the working (``= revenue 6,489 / average PP&E ((253 + 282) / 2)``);
the lines beneath name each cell used and cite its section and page. A cell of a section
navigation did not choose becomes a reference of its own (``S7``), so every citation can
be opened as evidence. When a cell cannot be found, the answer says which one and shows the
cells it did find; it never prints a number it did not compute.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from decimal import Decimal
from functools import partial
from typing import Any, NamedTuple

from ...evidence.cell_boxes import cited_cell
from ...navigate.ranking import RankingMemory, remembered
from ...text.figures import UNSCALED, Figure
from ...text.messages import DEFAULT_LANGUAGE, Joined, language_of, message, said_in
from ...tree.labels import page_label
from ..context import Prepared, reference
from .aggregate import Aggregate, aggregate, sheet_records
from .asks import Ask, read_ask
from .compare import comparison, per_period
from .compute import DECIMALS, Computation, compute, number
from .operands import UNIT_SIZE, Found, TableIndex

COMPUTED_NOTE = message("note.computed")  # English's; each language's is in the catalogue
_SCALES = {"thousands": "thousand", "millions": "million", "billions": "billion"}
# The words our code adds to a working and a comparison's conclusion (see ``_given``)
WORKING_KEYS = ("computed.working_average", "computed.working_change", "computed.days")
CONCLUSION_KEYS = ("computed.highest_lowest", "computed.only_one", "computed.none_prints")
_PLACEHOLDER = re.compile(r"\{\w+\}")
# A computed result handed to the support check is known to this relative precision (its
# cells are exact as printed): the answer's own rounding is the only tolerance.
EXACT = 1e-9
EXACT_DIGITS = 12


def computed_reply(query: str, prepared: Prepared, language: str | None = None) -> str | None:
    """The computed answer to ``query`` from the prepared documents' tables, or None when
    the question asks for no computation (the extractive answer then answers). Its notes,
    working labels and page labels are in ``language`` (the answer's; English by default)."""
    if not prepared.documents:
        return None
    if len(prepared.documents) > 1:
        compared = compared_reply(query, prepared, language)
        if compared is not None:
            return compared
    ask = read_ask(query)
    if ask is None:
        return aggregated_reply(query, prepared, language)
    best = best_computation(ask, prepared.documents, prepared.references, prepared.memory, language)
    if best is None or (not best.cells and not best.problem):
        return None
    return render(best, prepared, message("note.computed", language), language=language)


def best_computation(
    ask: Ask,
    documents: Mapping[str, Mapping[str, Any]],
    references: Sequence[Mapping[str, Any]] = (),
    memory: RankingMemory | None = None,
    language: str | None = None,
) -> Computation | None:
    """``ask`` computed in each document (those the references cite first): the first
    complete computation, else the one missing fewest cells. Each document's table index
    is kept in ``memory`` (built once per document, reused by every question); the
    working's words are in ``language``."""
    order = [str(r.get("doc_id", "")) for r in references]
    docs = sorted(
        documents.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order)
    )
    best: Computation | None = None
    for doc_id, document in docs:
        key = ("table-index", doc_id, str(document.get("indexed_at", "")))
        index: TableIndex = remembered(memory, key, partial(TableIndex.of, document))
        result = compute(ask, index, language)
        if result.complete:
            return result
        if best is None or len(result.missing) < len(best.missing):
            best = result
    return best


def render(
    result: Computation,
    prepared: Prepared,
    note: str = COMPUTED_NOTE,
    head: str = "",
    language: str | None = None,
) -> str:
    """The answer's text: headline with working and citations, then each cell cited, then
    ``note`` (who asked for the computation); ``head``: the headline's label and period."""
    ask = result.ask
    cites = {id(c): _cite(c, prepared, language) for c in result.cells}
    head = head or f"{said_in(ask.label, language)}, {_period(ask, language)}"
    _given(prepared, language, head, *WORKING_KEYS)
    joined = "; ".join(c.strip("[]") for c in dict.fromkeys(cites.values()) if c)
    refs = f" [{joined}]" if joined else ""
    if result.complete and result.result is not None:
        shown = shown_result(result, language)
        prepared.computed.append(shown)  # the support check counts it as computed
        lines = [f"{head}: {shown} = {result.working}{refs}"]
    elif result.missing:
        names = Joined(dict.fromkeys(result.missing))
        lines = [message("note.not_computed_missing", language, head=head, names=names)]
    else:
        lines = [message("note.not_computed", language, head=head, problem=result.problem)]
    lines += [f"- {line}" for line in result.lines]
    lines += [f"- {cell.shown()} {cites[id(cell)]}" for cell in result.cells]
    return "\n".join(lines) + ("\n\n" + note if note else "")


class EngineFigure(NamedTuple):
    """What the engine computes for a question, for the support check: the result as a
    figure known to its last digit, and where each cell it was computed from is printed."""

    figure: Figure
    places: tuple[dict[str, Any], ...]  # {"ref", "page", "page_unit", "quote"} per cell


def engine_figures(
    query: str,
    documents: Mapping[str, Mapping[str, Any]],
    references: Sequence[Mapping[str, Any]] = (),
    memory: RankingMemory | None = None,
) -> list[EngineFigure]:
    """The result the offline engine computes for ``query`` from the documents' tables (a
    ratio, a margin, a growth rate), unrounded: an answer's figure that agrees with it to
    the digits the answer prints is that computation's result. Each cell's place names the
    reference holding its section (``""`` when no section read holds it) and its page.
    Nothing is added to the references: the check only reads."""
    ask = read_ask(query) if documents else None
    best = best_computation(ask, documents, references, memory) if ask else None
    if best is None or not best.complete or best.result is None:
        return []
    value = float(best.result)
    if best.ask.kind in ("percent", "growth", "cagr") and not best.money:
        figure = _exact(f"{100 * value:.6f}%", 100 * value, percent=True)
    elif best.money:
        scaled = value / float(UNIT_SIZE.get(best.unit, Decimal(1)))
        figure = _exact(f"{scaled:.6f}", scaled)  # in the cells' unit, as a table prints it
    else:  # a ratio or days: a pure number, never read at a table's scale
        figure = _exact(UNSCALED[0] if best.ask.kind in ("ratio", "days") else f"{value:.6f}",
                        value)  # fmt: skip
    places = tuple(dict.fromkeys(_place(c, references) for c in best.cells))
    return [EngineFigure(figure, tuple(dict(p) for p in places))]


def _exact(text: str, value: float, percent: bool = False) -> Figure:
    """A computed result as a figure printed to many more digits than any answer prints."""
    return Figure(text, value, abs(value) * EXACT + EXACT, EXACT_DIGITS, percent)


def _place(cell: Found, references: Sequence[Mapping[str, Any]]) -> tuple[tuple[str, Any], ...]:
    ref = next(
        (r for r in references if str(r.get("doc_id", "")) == cell.doc_id
         and (r.get("node_id") == cell.node_id
              or any(s.get("node_id") == cell.node_id for s in r.get("spans") or []))),
        None,
    )  # fmt: skip
    return (("ref", str(ref.get("ref", "")) if ref else ""), ("page", cell.page),
            ("page_unit", str((ref or {}).get("page_unit") or "page")),
            ("quote", cell.shown()))  # fmt: skip


def _given(prepared: Prepared, language: str | None, text: str, *keys: str) -> None:
    """Our words in an answer in another language than English (``text`` and the
    catalogue's ``keys``, their placeholders left out), for the support check to take as
    the question's own, as it takes English's from the English question the engine read
    (see :attr:`..context.Prepared.said`)."""
    if language_of(language) != DEFAULT_LANGUAGE:
        words = (_PLACEHOLDER.sub(" ", message(key, language)) for key in keys)
        prepared.said.append(" ".join([text, *words]))


def _period(ask: Ask, language: str | None = None) -> str:
    years = ask.years if ask.average or ask.kind in ("growth", "change", "cagr") else ask.years[-1:]
    return _years(years, language)


def _years(years: Sequence[int], language: str | None) -> str:
    """``FY2019`` or ``FY2019–FY2021`` (``GJ 2019`` in German): the first and last."""
    first, last = (message("computed.fiscal_year", language, year=y) for y in (years[0], years[-1]))
    return first if len(years) == 1 else f"{first}–{last}"


def shown_result(result: Computation, language: str | None = None) -> str:
    """The result as asked: ``30.8%``, ``0.68``, ``93.86 days``, ``$3,215 million`` (the
    unit as the cells or the question print it; "days" in ``language``)."""
    ask, value = result.ask, result.result
    assert value is not None
    places = ask.decimals
    if ask.kind in ("percent", "growth", "cagr") and not result.money:
        return f"{number(value * 100, DECIMALS['percent'] if places is None else places)}%"
    if result.money:
        unit = _SCALES.get(ask.scale, result.unit)
        scaled = value / UNIT_SIZE.get(unit, Decimal(1))
        if places is None:
            places = 0 if scaled == scaled.to_integral_value() or abs(scaled) >= 100 else 2
        sign = "-" if scaled < 0 else ""
        tail = f" {unit}" if unit else ""
        return f"{sign}{result.currency}{number(abs(scaled), places)}{tail}"
    places = DECIMALS.get(ask.kind, 2) if places is None else places
    return number(value, places) + (
        message("computed.days", language) if ask.kind == "days" else ""
    )


def compared_reply(
    query: str, prepared: Prepared, language: str | None = None, note: str | None = None
) -> str | None:
    """The same quantity in each document asked: a table (document × period), each cell
    cited, and a one-line conclusion; then ``note`` (the offline engine's by default)."""
    found = comparison(query)
    if found is None:
        return None
    ask, years = found
    table: list[tuple[str, list[tuple[Decimal | None, str]]]] = []
    for doc_id, document in _ordered(prepared):
        key = ("table-index", doc_id, str(document.get("indexed_at", "")))
        index: TableIndex = remembered(prepared.memory, key, partial(TableIndex.of, document))
        cells: list[tuple[Decimal | None, str]] = []
        for year in years:
            result = compute(per_period(ask, year), index, language)
            if result.complete and result.result is not None:
                cites = "; ".join(
                    dict.fromkeys(_cite(c, prepared, language).strip("[]") for c in result.cells)
                )
                shown = shown_result(result, language)
                prepared.computed.append(shown)
                cells.append((result.result, f"{shown} [{cites}]"))
            else:
                why = Joined(dict.fromkeys(result.missing)) or result.problem
                cells.append((None, message("computed.not_found", language, why=why)))
        table.append((entity_name(document), cells))
    if not any(v is not None for _, cells in table for v, _ in cells):
        return None
    head = f"{said_in(ask.label, language)}, {_years(years, language)}"
    lines = [f"{head}: {conclusion(table, years, language)}", ""]
    _given(prepared, language, head, *CONCLUSION_KEYS)
    lines.append("| | " + " | ".join(_years([y], language) for y in years) + " |")
    lines.append("|---|" + "---:|" * len(years))
    lines += [
        f"| {name} | " + " | ".join(text for _, text in cells) + " |" for name, cells in table
    ]
    note = message("note.computed", language) if note is None else note
    return "\n".join(lines) + ("\n\n" + note if note else "")


def conclusion(
    table: list[tuple[str, list[tuple[Decimal | None, str]]]],
    years: list[int],
    language: str | None = None,
) -> str:
    """One line: who is highest and lowest in the last period every row has."""
    last = [(name, cells[-1]) for name, cells in table if cells[-1][0] is not None]
    if len(last) < 2:
        return message("computed.only_one" if last else "computed.none_prints", language)
    high = max(last, key=lambda x: x[1][0] or 0)
    low = min(last, key=lambda x: x[1][0] or 0)
    shown = lambda cell: cell[1].split(" [")[0]  # noqa: E731
    return message(
        "computed.highest_lowest", language, year=_years(years[-1:], language), high=high[0],
        high_value=shown(high[1]), low=low[0], low_value=shown(low[1]),
    )  # fmt: skip


def entity_name(document: dict[str, Any]) -> str:
    """A document as a row of a comparison: its file name without the extension."""
    name = str(document.get("file_name") or document.get("doc_id") or "")
    return name.rsplit(".", 1)[0] if "." in name else name


def _ordered(prepared: Prepared) -> list[tuple[str, dict[str, Any]]]:
    order = [str(r.get("doc_id", "")) for r in prepared.references]
    return sorted(
        ((doc_id, dict(document)) for doc_id, document in prepared.documents.items()),
        key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order),
    )


def aggregated_reply(query: str, prepared: Prepared, language: str | None = None) -> str | None:
    """A sum, average or count over a sheet's rows the question filters, with the rows used."""
    for doc_id, document in prepared.documents.items():
        key = ("sheet-records", doc_id, str(document.get("indexed_at", "")))
        records = remembered(prepared.memory, key, partial(sheet_records, document))
        found = aggregate(query, document, records)
        if found is None:
            continue
        return render_aggregate(found, doc_id, prepared, language)
    return None


def render_aggregate(
    found: Aggregate,
    doc_id: str,
    prepared: Prepared,
    language: str | None = None,
    note: str | None = None,
) -> str:
    """``Total Revenue, Region North · Quarter Q3: 168,200 (sum of 412 rows) [S1, sheet 1]``
    (its working's words and page labels in ``language``), then ``note`` (the offline
    engine's by default)."""

    def said(key: str, **values: object) -> str:
        return message(f"computed.{key}", language, **values)

    n = found.count
    where = " · ".join(f"{col} {val}" for col, val in found.filters) or said("all_rows")
    # the parts of the sheet the rows shown come from are cited (a long sheet has hundreds)
    shown_parts = dict.fromkeys(node for node, _offset, _cells in found.rows)
    cites = [
        _cite_at(prepared, doc_id, node, found.pages.get(node), language) for node in shown_parts
    ]
    joined = "; ".join(c.strip("[]") for c in dict.fromkeys(cites) if c)
    refs = f" [{joined}]" if joined else ""
    parts = len(found.pages)
    label = f"{said('word_' + found.kind)} {found.measure}".strip()
    if found.value is None:
        return said("no_rows", label=label, where=where) + refs
    places = 0 if found.value == found.value.to_integral_value() else 2
    spread = said("spread", parts=parts) if parts > 1 else ""
    how = said(f"how_{found.kind}", count=n, spread=spread)
    lines = [f"{label}, {where}: {number(found.value, places)} ({how}){refs}"]
    _given(prepared, language, f"{label} {where} {how}")
    for node, _offset, cells in found.rows:
        shown = " · ".join(f"{k} {v}" for k, v in cells.items() if v and v != "—")
        cite = _cite_at(prepared, doc_id, node, found.pages.get(node), language)
        lines.append(f"- {shown} {cite}")
    if n > len(found.rows):
        lines.append("- " + said("more_rows", count=n - len(found.rows)))
    note = message("note.computed", language) if note is None else note
    return "\n".join(lines) + ("\n\n" + note if note else "")


def _cite(cell: Found, prepared: Prepared, language: str | None = None) -> str:
    """``[S3, p. 55]``: the reference holding the cell's section, added when navigation did
    not choose that section. A cell on a page is left on the reference (``cited_cells``):
    its evidence outlines the figure itself."""
    cited = cited_cell(cell.page, cell.table, cell.offset, cell.cell) if cell.page else None
    return _cite_at(prepared, cell.doc_id, cell.node_id, cell.page, language, cited)


def _cite_at(
    prepared: Prepared,
    doc_id: str,
    node_id: str,
    page: int | None,
    language: str | None = None,
    cited: dict[str, Any] | None = None,
) -> str:
    ref = next(
        (
            r
            for r in prepared.references
            if str(r.get("doc_id", "")) == doc_id
            and (
                r.get("node_id") == node_id
                or any(s.get("node_id") == node_id for s in r.get("spans") or [])
            )
        ),
        None,
    )
    if ref is None:
        ref = _add_reference(prepared, doc_id, node_id, page)
    if ref is None:
        return ""
    if cited is not None:
        cells = ref.setdefault("cited_cells", [])
        if cited not in cells:
            cells.append(cited)
    shown = page_label(page, None, ref.get("page_unit"), language) if page else ""
    return f"[{ref['ref']}, {shown}]" if shown else f"[{ref['ref']}]"


def _add_reference(
    prepared: Prepared, doc_id: str, node_id: str, page: int | None
) -> dict[str, Any] | None:
    document = prepared.documents.get(doc_id)
    if document is None or node_id not in (document.get("flat_nodes") or {}):
        return None
    ref = reference(document, node_id)
    number_ = len(prepared.references) + 1
    ref["ref"] = f"S{number_}"
    ref["page_start"] = ref["page_end"] = page
    ref["added_by"] = "computation"
    prepared.references.append(ref)
    node = document["flat_nodes"][node_id]
    prepared.sections.append(
        {
            "label": f"S{number_} · {ref['path']}",
            "text": str(node.get("text") or ""),
            "ref": ref["ref"],
            "page_start": node.get("page_start"),
            "page_marks": node.get("page_marks") or [],
            "page_unit": ref["page_unit"],
        }
    )
    return ref
