"""The answer metric: does the answer say the figure the gold answer prints?

Page hits say navigation found the evidence; this says the answer then quoted it. It grades
only what can be checked without a model, by a rule stated once here (and in the README):

- A **figure** is a number written in digits, ``1,577``, ``1577.00`` or ``(370)``, not glued
  to a letter or another digit; its value ignores thousands separators, parentheses and
  sign, so ``1,577``, ``(1,577)`` and ``$1577.00`` are one figure.
- A **gold figure** is a figure of the gold answer written with 3 or more digits, leading
  zeros not counted, that is not a year (a bare four-digit 1900–2099 with no separator,
  decimals or currency sign): ``$1577.00``, ``982`` and ``24.6%`` count; ``$0.40``, ``55``
  and ``2022`` do not: a one- or two-digit number or a year matches some page by chance.
- It is **printed** when an evidence page's text holds a figure of the same value.
- A question is **graded** when its gold answer has at least one printed gold figure, and
  the answer **hits** when it contains every printed gold figure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

_FIGURE = re.compile(r"(?<![\w.,])([$€£¥]\s?)?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\w])")
MIN_FIGURE_DIGITS = 3  # "55" or "0.4" is on most pages by chance; "24.6" or "1,577" is not
YEARS = range(1900, 2100)  # a bare four-digit number in this range is a year, not an amount


def figures(text: str) -> list[tuple[Decimal, str]]:
    """Every figure in ``text``: its value and how it was written."""
    out = []
    for m in _FIGURE.finditer(text or ""):
        digits = m.group(2).replace(",", "") + (m.group(3) or "")
        try:
            out.append((abs(Decimal(digits)), m.group(0)))
        except InvalidOperation:  # pragma: no cover - the pattern only matches digits
            continue
    return out


def is_year(written: str) -> bool:
    return bool(re.fullmatch(r"\d{4}", written)) and int(written) in YEARS


def gold_figures(answer: str) -> list[Decimal]:
    """The gold answer's figures that can grade an answer (3+ digits, not a year)."""
    out: list[Decimal] = []
    for value, written in figures(answer):
        digits = re.sub(r"\D", "", written).lstrip("0")
        if len(digits) < MIN_FIGURE_DIGITS or is_year(written):
            continue
        if value not in out:
            out.append(value)
    return out


def printed_figures(gold_answer: str, evidence_texts: Iterable[str]) -> list[Decimal]:
    """The gold figures some evidence page prints (the ones an extractive answer can say)."""
    printed = {value for text in evidence_texts for value, _ in figures(text)}
    return [value for value in gold_figures(gold_answer) if value in printed]


def answer_hit(answer: str, printed: list[Decimal]) -> bool | None:
    """True when the answer says every printed gold figure; None when there is none."""
    if not printed:
        return None
    said = {value for value, _ in figures(answer)}
    return all(value in said for value in printed)


def first_line(answer: str) -> str:
    """The answer's first non-empty line: what a reader sees first."""
    return next((line.strip() for line in (answer or "").splitlines() if line.strip()), "")


def node_page_text(flat_nodes: Mapping[str, Any], page: int) -> str:
    """The indexed text of one page, put back together from the sections that hold it
    (each section's ``page_marks`` say where its pages begin): the evidence page of a
    document whose source pages are not at hand."""
    parts = []
    for node in flat_nodes.values():
        start = node.get("page_start")
        if start is None or not start <= page <= (node.get("page_end") or start):
            continue
        text = str(node.get("text") or "")
        bounds = [(0, start), *((int(o), int(p)) for o, p in node.get("page_marks") or [])]
        for (offset, at), (end, _) in zip(bounds, [*bounds[1:], (len(text), 0)], strict=True):
            if at == page:
                parts.append(text[offset:end])
    return "\n".join(parts)


def evidence_texts(
    flat_nodes: Mapping[str, Any], pages: Iterable[int], page_texts: Sequence[str] | None
) -> list[str]:
    """The gold pages' text: the source's pages when known, else the indexed sections'."""
    out = []
    for page in pages:
        if page_texts and 0 < page <= len(page_texts):
            out.append(page_texts[page - 1])
        else:
            out.append(node_page_text(flat_nodes, page))
    return out
