"""What a section holds, in a sentence or two: the offline engine's section summary.

A reader of the outline (a person, or the search model) needs to tell sections apart by
their summaries, so the summary is never the heading again, a table's header row or text
every filing prints (its cover page, its contents page, its signature block, the running
header of each page). It is, in order of preference:
- for a known kind of boilerplate page (cover, contents, signatures), what that page is;
- for a section that is mostly a table: its caption, the periods of its columns and what
  its rows are (``Consolidated statements of income for years ended May 31, 2021–2023:
  revenues, cost of sales, gross profit, …, net income``);
- else the first sentences of its prose that state something (whole sentences, not
  headings, not rows of figures), with a table it holds named after them;
- for a section with no text of its own, the sub-sections it holds.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..text.sentences import iter_sentences
from ..text.tables import Row, table_rows

MAX_CHARS = 260  # a summary line in the outline: about two sentences
# How much of a long section is read: its lead is in its first prose, its table's caption,
# periods and first and last rows in its first pages (a summary, not an index).
PROSE_CHARS = 3000
RUNNING_CHARS = 60  # a running header or footer is a short line
TABLE_CHARS = 8000
LEAD_SHARE = 0.6  # a lead this share of MAX_CHARS long is enough: stop adding sentences
MIN_SENTENCE_WORDS = 4  # fewer words: a heading, a label or a fragment
LABEL_WORDS = 8  # a line ending in ":" shorter than this labels rows, it states nothing
CLOSED_SENTENCE_WORDS = 6  # a shorter one must end like a sentence ("Laptops must be encrypted.")
NUMERIC_SHARE = 0.35  # a "sentence" whose tokens are this much figures is a row of a table
MIN_TABLE_ROWS = 3  # a table named in the summary: at least this many rows
ROW_NAMES_HEAD, ROW_NAMES_TAIL = 4, 2  # rows named: the first few, "…", the last ones
MAX_CHILDREN_NAMED = 6
# Lines a filing prints on every page (``2023 FORM 10-K 31``, ``Page 4 of 90``,
# ``Table of Contents``): furniture, never content.
_RUNNING = re.compile(
    r"^(?:(?:\d{1,4}\s+)?(?:[A-Z][\w.,&'’-]*\s+){0,4}form\s+10-?[kq](?:\s+\d{1,4})?"
    r"|page\s+\d+(?:\s+of\s+\d+)?|table\s+of\s+contents|\d{1,4}|[ivxlc]{1,6})\s*$",
    re.I,
)
# Text copied from a filing's boilerplate pages: a sentence with these is not the subject.
BOILERPLATE = re.compile(
    r"indicate by check mark|washington,?\s+d\.?\s?c\.?|commission file number|"
    r"exact name of registrant|/s/|duly caused this report|pursuant to the requirements of|"
    r"\(mark one\)|i\.r\.s\. employer|\btable of contents\b|"
    # sentences about the report's words, not its subject: "the terms “we,” “us” and “our”
    # … refer to …", "references to our website addresses do not constitute incorporation
    # by reference …", "certain terms … are defined in the Glossary …"
    r"\b(?:terms|references\s+to)\b[^.]{0,80}?[“\"']we,?[”\"']|not\s+constitute\s+incorporation\s+by\s+reference|"
    r"\bdefined\s+in\s+(?:a|the)\s+glossary\b",
    re.I,
)
# Pages every filing has, recognised by what they print, and what each holds.
BOILERPLATE_KINDS: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("cover", re.compile(r"indicate by check mark|commission file (?:number|no)|exact name of "
                         r"registrant|securities registered pursuant|\(mark one\)|securities\s+and\s+exchange\s+"
                         r"commission\s+washington", re.I),
     "Cover page of the {report}: the registrant, the securities registered and the "
     "filer's status."),
    ("signatures", re.compile(r"duly caused this (?:report|annual report|quarterly report)"
                              r"\s+to\s+be\s+signed", re.I),
     "Signatures: the officers and directors who signed the report, with their titles and "
     "the date."),
)  # fmt: skip
_MONTH = re.compile(
    r"^(?:january|february|march|april|may|june|july|august|september|october|"
    r"november|december)\b",
    re.I,
)
_REPORT = re.compile(r"\b(annual|quarterly|transition)\s+report\s+pursuant", re.I)
_PERIOD_ENDED = re.compile(r"\b(?:fiscal\s+year|quarterly\s+period|year)\s+ended\s+"
                           r"([a-z]+\s+\d{1,2},?\s+\d{4})", re.I)  # fmt: skip
_ENDS_IN_FIGURE = re.compile(r"\d[\d,.]*\)?\s*%?\s*$", re.M)
_INTRODUCES = re.compile(r"\b(?:as follows|the following|below)\s*:\s*$", re.I)
# A list item's or a clause's mark before a sentence: "(a) ", "3.1 ", "2. "
_ITEM_MARK = re.compile(
    r"^(?:\([a-z0-9]{1,4}\)|\d{1,2}(?:\.\d{1,2})*\.?|[a-z]\.|[•·▪*–-])\s+", re.I
)
# The letters ``str.lower()`` folds otherwise than IGNORECASE matches them ("İ" into two
# characters; "ı" and "ſ", which match "i" and "s", kept): a text with one is searched with
# the pattern as it is.
_FOLDS_APART = re.compile("[\u0130\u0131\u017f]")
# A page other than a contents page is told a cover or a signature page by its first lines.
BOILERPLATE_LINES = 60
_CONTENTS_TITLE = re.compile(r"^\s*(?:table\s+of\s+)?contents\s*$|^\s*index\s*$", re.I)
_PAGE_AT_END = re.compile(r"\s+\d{1,4}\s*$")
_WORDS = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_FIGURE = re.compile(r"^[\s$€£(]*[-–]?\d[\d,.]*\)?%?$")
_YEARISH_TITLE = re.compile(r"^[\W\d]*(?:(?:fiscal\s+)?years?|quarters?|months?|as\s+of|at)\b"
                            r"[\w\s,]*\d{4}\W*$", re.I)  # fmt: skip
_PERIOD = re.compile(
    r"\b((?:(?:three|six|nine|twelve)(?:\s+and\s+(?:three|six|nine|twelve))?\s+months|"
    r"(?:fiscal\s+)?years?|quarters?)\s+ended|as\s+of|at)\s+([A-Z][a-z]+\s+\d{1,2})\b",
    re.I,
)


def sentence_case(text: str) -> str:
    """A heading printed in capitals, as a sentence starts (``NOTE 7 — INCOME TAXES`` →
    ``Note 7 — Income taxes``; ``PART II``, ``10-K`` and month names kept); mixed-case
    text as printed."""
    text = " ".join(text.split())
    if any(c.islower() for c in text):
        return text
    words = [
        w
        if re.search(r"\d", w) or re.fullmatch(r"\W*[IVX]{1,4}\W*", w)
        else w.capitalize()
        if _MONTH.match(w)
        else w.lower()
        for w in text.split()
    ]
    joined = " ".join(words)
    return joined[:1].upper() + joined[1:]


def _norm(text: str) -> str:
    return " ".join(w.lower() for w in _WORDS.findall(text))


def clean_lines(text: str, title: str = "", limit: int | None = None) -> list[str]:
    """The section's lines without running headers and footers or its heading again (the
    first ``limit`` of them, when a caller reads no more)."""
    heading = _norm(title)
    kept: list[str] = []
    for line in text.split("\n"):
        if limit is not None and len(kept) >= limit:
            break
        stripped = line.strip()
        if not stripped or len(stripped) <= RUNNING_CHARS and _RUNNING.match(stripped):
            continue
        if heading and len(stripped) <= len(title) + 8 and _norm(stripped) == heading:
            continue
        kept.append(stripped)
    return kept


def _states_something(sentence: str, title: str) -> bool:
    """A whole sentence of prose: words, not figures; not a heading; not boilerplate."""
    sentence = _ITEM_MARK.sub("", sentence)
    words = _WORDS.findall(sentence)
    if len(words) < MIN_SENTENCE_WORDS or not sentence[:1].isupper() and sentence[:1] not in '"“':
        return False
    if len(words) < CLOSED_SENTENCE_WORDS and not sentence.rstrip().endswith((".", "!", "?")):
        return False
    if sentence.rstrip().endswith(":") and (
        len(words) < LABEL_WORDS or _INTRODUCES.search(sentence)
    ):
        return False  # a table's group label, or "… is as follows:": it only introduces
    if not any(c.islower() for c in sentence) or BOILERPLATE.search(sentence):
        return False
    tokens = sentence.split()
    figures = sum(1 for t in tokens if _FIGURE.match(t.strip(",;:")) or t in {"%", "$"})
    if figures / len(tokens) >= NUMERIC_SHARE:
        return False
    own = _norm(sentence)
    return bool(own) and own not in _norm(title)


def _bounded(parts: list[str], max_chars: int) -> str:
    text = " ".join(p for p in parts if p)
    if len(text) > max_chars:
        text = text[: max_chars - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"
    return text


def _rows(text: str) -> list[Row]:
    """The text's table rows; none read when fewer than two lines end in a figure (prose,
    code: reading them as a table costs time and finds nothing)."""
    if len(_ENDS_IN_FIGURE.findall(text)) < 2:
        return []
    return table_rows(text)


def _prose(lines: Sequence[str], rows: Sequence[Row]) -> str:
    """The lines no table row is printed on, joined, up to PROSE_CHARS."""
    covered = sorted((r.start, r.end) for r in rows)
    kept, offset, size = [], 0, 0
    for line in lines:
        at = bisect.bisect_right(covered, (offset, float("inf"))) - 1
        if not (at >= 0 and covered[at][0] <= offset < max(covered[at][1], covered[at][0] + 1)):
            kept.append(line)
            size += len(line) + 1
            if size > PROSE_CHARS:
                break
        offset += len(line) + 1
    return "\n".join(kept)


def lead_sentences(
    lines: Sequence[str], title: str = "", max_chars: int = MAX_CHARS,
    rows: Sequence[Row] | None = None,
) -> str:  # fmt: skip
    """The first sentences of the prose that state something, up to ``max_chars``
    (``rows``: the table rows of ``lines`` joined, when already read)."""
    if rows is None:
        rows = _rows("\n".join(lines)[:TABLE_CHARS])
    chosen: list[str] = []
    for sentence in iter_sentences(_prose(lines, rows)):
        if not _states_something(sentence, title):
            continue
        sentence = _ITEM_MARK.sub("", sentence)
        candidate = " ".join([*chosen, sentence])
        if len(candidate) > max_chars:
            if not chosen:
                chosen.append(_bounded([sentence], max_chars))
            break
        chosen.append(sentence)
        if len(candidate) > LEAD_SHARE * max_chars:
            break
    return " ".join(chosen)


def leading_summary(text: str, title: str = "", max_chars: int = 200) -> str:
    """A section's lead in at most ``max_chars``: its first sentences that state something
    (the card's and the overview's fallback for a section with no summary stored)."""
    return lead_sentences(clean_lines(text, title), title, max_chars)


def periods(rows: Sequence[Row], text: str) -> str:
    """The periods of a table's columns: ``years ended May 31, 2021–2023``, ``2022 and
    2023``, or ``fiscal 2021–2023``; "" when its header names no years."""
    years = sorted({y for r in rows for y in r.years if y})
    if not years:
        return ""
    head = " ".join([rows[0].caption, rows[0].header, text[:400]])
    if len(years) == 1:
        span = str(years[0])
    elif years == list(range(years[0], years[-1] + 1)) and len(years) > 2:
        span = f"{years[0]}–{years[-1]}"
    else:
        span = ", ".join(map(str, years[:-1])) + f" and {years[-1]}"
    found = _PERIOD.search(head)
    if found:
        return f"{found.group(1).lower()} {found.group(2).title()}, {span}"
    return f"fiscal {span}" if re.search(r"\bfiscal\b", head, re.I) else span


def row_names(rows: Sequence[Row], text: str = "") -> list[str]:
    """What a table's rows are: their labels, each once, in order. Rows grouped under a
    label line ("Earnings per common share:" over "Basic" and "Diluted") are named by that
    label; a one-word label that repeats under several groups is left out."""
    groups = {}  # a row's start offset -> the group label printed just above it
    for found in re.finditer(r"^([^\d\n$]{3,80}):\s*$", text, re.M):
        groups[found.end()] = found.group(1).strip()
    labels = [" ".join(re.sub(r"\(\d\)|\$(?=\s|$)|:$", " ", r.label).split()) for r in rows]
    counts = {label.lower(): labels.count(label) for label in labels}
    names: list[str] = []
    group = ""
    for row, label in zip(rows, labels, strict=True):
        above = [
            g
            for end, g in groups.items()
            if end <= row.start and text[end : row.start].count("\n") <= 1
        ]
        if above:
            group = above[-1]
        one_word = len(label.split()) == 1
        if one_word and group:
            label = group
        elif not one_word:
            group = ""
        if not _WORDS.search(label) or _RUNNING.match(label) or counts.get(label.lower(), 1) > 1:
            continue
        name = label.lower() if label.isupper() else _lower_first(label)
        if name not in names:
            names.append(name)
    return names


def _lower_first(label: str) -> str:
    """``Cost of sales`` → ``cost of sales`` in a list; ``United States`` stays a name."""
    rest = label.split()[1:]
    if any(w[:1].isupper() for w in rest):
        return label
    return label[:1].lower() + label[1:]


def table_summary(rows: Sequence[Row], caption: str, text: str) -> str:
    """``Caption for periods: first rows, …, last rows``."""
    names = row_names(rows, text)
    if len(names) > ROW_NAMES_HEAD + ROW_NAMES_TAIL + 1:
        names = [*names[:ROW_NAMES_HEAD], "…", *names[-ROW_NAMES_TAIL:]]
    when = periods(rows, text)
    # "Consolidated Balance Sheets at December 28, 2018 and 2019", not "for at"
    joined = " " if when.lower().startswith(("at ", "as of ")) else " for "
    head = sentence_case(caption) + (joined + when if when else "")
    return _bounded([f"{head}: {', '.join(names)}" if names else head], MAX_CHARS)


def _caption(title: str, path: str) -> str:
    """The table's caption: the section's title, or its parent's when the title only names
    a period (``YEAR ENDED MAY 31, 2023`` under ``Disaggregation of revenues``)."""
    parts = [p.strip() for p in path.split(">") if p.strip()]
    if _YEARISH_TITLE.match(title) and len(parts) >= 2:
        return f"{sentence_case(parts[-2])}, {sentence_case(title).lower()}"
    return re.sub(r"^(?:note|item)\s+\d+[a-z]?\s*[.:—–-]*\s*", "", title, flags=re.I) or title


def boilerplate_kind(title: str, lines: Sequence[str]) -> str | None:
    """What a boilerplate page holds, when the section is one (cover, contents, signatures)."""
    if _CONTENTS_TITLE.match(title):
        entries = [_PAGE_AT_END.sub("", line) for line in lines if _PAGE_AT_END.search(line)]
        entries = [e for e in entries if len(_WORDS.findall(e)) >= 1][:MAX_CHILDREN_NAMED]
        listed = ", ".join(sentence_case(e) for e in entries)
        return _bounded([f"The document's contents, page by page: {listed}"], MAX_CHARS)
    head = " ".join(lines[:BOILERPLATE_LINES])
    folded = None if _FOLDS_APART.search(head) else head.lower()
    for _kind, pattern, what in BOILERPLATE_KINDS:
        fast = _case_sensitive(pattern) if folded is not None else None
        found = fast.search(folded) if fast and folded is not None else pattern.search(head)
        if found:
            return what.format(report=_report_name(head))
    return None


def boilerplate_of(text: str, title: str = "") -> str | None:
    """:func:`boilerplate_kind` of a section's text, cleaning only the lines it reads: a
    contents page's every line, another page's first ``BOILERPLATE_LINES`` (the card read
    whether each of a 20,000-row sheet's parts is a cover, every line of each)."""
    limit = None if _CONTENTS_TITLE.match(title) else BOILERPLATE_LINES
    return boilerplate_kind(title, clean_lines(text, title, limit))


@functools.lru_cache(maxsize=32)
def _case_sensitive(pattern: re.Pattern[str]) -> re.Pattern[str] | None:
    """``pattern`` without IGNORECASE, to search lower-cased text with: the same matches
    (see ``_FOLDS_APART``) in a quarter of the time, on every section's first 60 lines. None
    unless the pattern ignores case and is ASCII in lower case."""
    source = pattern.pattern
    if not pattern.flags & re.I or not source.isascii() or source != source.lower():
        return None
    return re.compile(source, pattern.flags & ~re.I)


def _report_name(head: str) -> str:
    """``annual report for the fiscal year ended May 31, 2023``, from a cover's lines."""
    kind = _REPORT.search(head)
    name = f"{kind.group(1).lower()} report" if kind else "filing"
    ended = _PERIOD_ENDED.search(head)
    if ended:
        month, rest = ended.group(1).split(None, 1)
        name += f" for the period ended {month.capitalize()} {rest}"
    return name


def children_summary(child_titles: Sequence[str]) -> str:
    """A section with no text of its own: the sub-sections it holds."""
    if not child_titles:
        return ""
    named = [sentence_case(t) for t in child_titles[:MAX_CHILDREN_NAMED]]
    more = len(child_titles) - len(named)
    tail = f" and {more} more" if more > 0 else ""
    return _bounded([f"Covers {'; '.join(named)}{tail}".rstrip(".") + "."], MAX_CHARS)


def section_summary(node: Mapping[str, Any], child_titles: Sequence[str] = ()) -> str:
    """What the section holds (see the module docstring)."""
    title = str(node.get("title") or "")
    lines = clean_lines(str(node.get("text") or ""), title)
    kind = boilerplate_kind(title, lines)
    if kind:
        return kind
    text = "\n".join(lines)[:TABLE_CHARS]
    every = _rows(text)
    rows = [r for r in every if r.label]
    lead = lead_sentences(lines, title, rows=every)
    if len(rows) >= MIN_TABLE_ROWS or rows and not lead:
        table = table_summary(rows, _caption(title, str(node.get("path") or "")), text)
        if not lead or len(rows) * 2 >= len(lines):  # mostly a table: the table says it
            return table
        return _bounded([lead, f"Table: {table}"], MAX_CHARS)
    if lead:
        return lead
    return children_summary(child_titles)
