"""The answer model's calculations, done by code: it names the cells, the app computes.

A model asked for a ratio or a growth rate computes it in its head, unchecked. The answer
prompt carries the sections' tables with named cells (:mod:`.cells`) and asks the model to
reply with one fenced JSON block per calculation instead::

    {"compute": "a / ((b + c) / 2)", "label": "Fixed asset turnover", "period": "FY2019",
     "format": "ratio", "decimals": 2,
     "operands": {"a": {"cell": "T1.r2.c1", "name": "revenue"}, "b": {"cell": "T2.r5.c1"}, …}}

Each block is taken out of the reply and computed here with the offline engine's own
formula and Decimal arithmetic (:func:`..text.formula.parse`,
:func:`.offline.compute.evaluate`), then shown as the offline computed answer shows it
(:func:`.computed.render`): the result first with its working, each cell beneath with its
section and page cited. The result is noted on ``prepared.computed`` so the support check
counts a figure the model states as checked only when it is a cell or this result. A cell
the prompt never sent, an unknown letter, a division by zero or a sum of an amount and a
percentage gives a sentence saying so, never a number.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from decimal import Decimal
from typing import Any

from ..llm.call import LLMReply
from ..llm.replies import strip_thinking
from ..text.formula import FormulaError, Operand, parse
from ..text.messages import Phrase, message, raised, said_in, trimmed
from .context import Prepared
from .offline.asks import Ask
from .offline.compute import Computation, Value, evaluate, number, said_later
from .offline.computed import render
from .offline.operands import Found, found_cell
from .sheets import aggregated

# italic: a note of ours, not a claim the support check weighs (English's; the answer's
# language is used)
MODEL_NOTE = message("note.model_computed")
_BLOCK = re.compile(r"```[a-zA-Z]*\s*(\{.*?\}|\[.*?\])\s*```", re.S)
_KINDS = {"ratio": "ratio", "percent": "percent", "percentage": "percent", "%": "percent",
          "amount": "amount", "money": "amount", "days": "days"}  # fmt: skip
_OPERATOR = re.compile(r"\s*([-+*/×÷()])\s*")  # "a-b" is a - b (letters are names, not words)
MAX_CALCULATIONS = 8  # a reply asking for more is asking for the first eight


def asked(text: str) -> tuple[list[dict[str, Any]], str]:
    """The calculations a reply asks for, and the reply without their blocks."""
    found: list[dict[str, Any]] = []

    def take(m: re.Match[str]) -> str:
        try:
            value = json.loads(m.group(1))
        except ValueError:
            return m.group(0)
        items = value if isinstance(value, list) else [value]
        wanted = [v for v in items if isinstance(v, dict) and ("compute" in v or "aggregate" in v)]
        if not wanted or len(wanted) != len(items):
            return m.group(0)
        found.extend(wanted)
        return ""

    rest = _BLOCK.sub(take, strip_thinking(text))
    return found[:MAX_CALCULATIONS], re.sub(r"\n{3,}", "\n\n", rest).strip()


def calculated(prepared: Prepared, reply: LLMReply, language: str | None = None) -> LLMReply:
    """The reply with its calculation and sheet aggregate blocks (:mod:`.sheets`) computed:
    a comparison's table the app computed for the prompt (:mod:`.comparisons`) first, then
    the results and their working, then what the model wrote around them; a reply asking
    for none, to a question with no such table, is returned as it is. Our words (the note,
    why a calculation cannot be done) are in ``language`` (else the documents')."""
    wanted, rest = asked(reply.text)
    if not wanted and not prepared.compared:
        return reply
    language = language or prepared.language(prepared.searched_as)
    shown = [
        aggregated(prepared, item, language) if "aggregate" in item
        else render_calculation(prepared, item, language) for item in wanted
    ]  # fmt: skip
    note = message("note.model_compared" if prepared.compared else "note.model_computed", language)
    prepared.model_words = rest  # only its own words can be garbled
    parts = [prepared.compared, "\n\n".join(shown), rest, note]
    return replace(reply, text="\n\n".join(p for p in parts if p))


def render_calculation(
    prepared: Prepared, item: dict[str, Any], language: str | None = None
) -> str:
    """One calculation computed from the cells it names, as the answer shows it (the model's
    label and period as it wrote them; our words in ``language``)."""
    result = calculation(prepared, item)
    period = " ".join(str(item.get("period") or "").split())
    label = said_in(result.ask.label, language)
    head = f"{label}, {period}" if period else label
    return render(result, prepared, note="", head=head, language=language)


def calculation(prepared: Prepared, item: dict[str, Any]) -> Computation:
    """The calculation ``item`` asks for, over the cells the prompt sent."""
    formula = " ".join(_OPERATOR.sub(r" \1 ", str(item.get("compute") or "")).split())
    given = item.get("operands")
    operands: dict[str, Any] = given if isinstance(given, dict) else {}
    cells: dict[str, Found] = {}
    missing: list[str] = []
    for letter, spec in operands.items():
        cell = _cell(prepared, spec)
        if cell is None:
            missing.append(Phrase("computed.cell_not_sent", cell=_cell_name(spec)))
        else:
            cells[str(letter).strip().lower()] = cell
    years = sorted({c.year for c in cells.values() if c.year})
    ask = Ask(
        label=_label(item),
        formula=formula,
        years=tuple(years[-1:]),
        kind=_kind(item, cells),
        decimals=_decimals(item.get("decimals")),
    )
    out = Computation(ask, cells=list(dict.fromkeys(cells.values())), missing=missing)
    unit = next((c for c in cells.values() if c.unit or c.currency), None)
    out.unit, out.currency = (unit.unit, unit.currency) if unit else ("", "")
    if missing:
        return out
    try:
        expr = parse(formula)
    except FormulaError as exc:
        out.problem = said_later(exc)
        return out
    names = {letter: _name(item, letter, cell) for letter, cell in cells.items()}
    value, problem = evaluate(expr, lambda operand: _value(operand, cells, names))
    if value is None:
        out.problem = trimmed(problem, ".")
        return out
    out.result, out.money, out.working = value.amount, value.money, value.text
    if not _KINDS.get(str(item.get("format") or "").strip().lower()):
        ask.kind = "amount" if value.money else "ratio"  # no format given: as computed
    return out


def _value(operand: Operand, cells: dict[str, Found], names: dict[str, str]) -> Value:
    """A letter of the formula as the value of the cell it names."""
    letter = operand.phrase.strip().lower()
    cell = cells.get(letter)
    if cell is None:
        raise raised(FormulaError, "error.formula_not_cell", phrase=operand.phrase)
    money = not cell.percent
    amount = cell.base if money else cell.value
    return Value(amount, money, f"{names[letter]} {number(cell.value)}")


def _cell(prepared: Prepared, spec: Any) -> Found | None:
    where = prepared.sent_tables.cell(_cell_name(spec))
    if where is None:
        return None
    doc_id, table, row_index, column = where
    row = (table.get("rows") or [])[row_index]
    years = list(row.get("years") or [])
    year = years[column] if column < len(years) and years[column] else 0
    return found_cell(doc_id, table, row, column, int(year))


def _cell_name(spec: Any) -> str:
    return str(spec.get("cell") if isinstance(spec, dict) else spec).strip()


def _name(item: dict[str, Any], letter: str, cell: Found) -> str:
    """What the working calls an operand: the model's name for it, else its row's label."""
    spec = next((v for k, v in (item.get("operands") or {}).items()
                 if str(k).strip().lower() == letter), None)  # fmt: skip
    given = spec.get("name") if isinstance(spec, dict) else ""
    name = " ".join(str(given or "").split()) or cell.label.rsplit(" › ", 1)[-1]
    return name[:1].lower() + name[1:] if name[1:2].islower() else name


def _label(item: dict[str, Any]) -> str:
    label = " ".join(str(item.get("label") or "").split())
    return label[:1].upper() + label[1:] if label else Phrase("computed.label_default")


def _kind(item: dict[str, Any], cells: dict[str, Found]) -> str:
    """The format the model asked for (until computed, a guess from the cells)."""
    kind = _KINDS.get(str(item.get("format") or "").strip().lower())
    if kind:
        return kind
    return "amount" if any(not c.percent for c in cells.values()) else "ratio"


def _decimals(value: Any) -> int | None:
    try:
        places = int(Decimal(str(value)))
    except (ArithmeticError, ValueError, TypeError):
        return None
    return places if 0 <= places <= 6 else None
