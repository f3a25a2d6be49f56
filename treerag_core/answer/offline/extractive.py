"""The extractive answer: the document's own table row or sentence that answers, cited.

With no model, the answer is copied, never written: the first line is the single best
table row (read in the asked period's column, with its unit) or whole sentence (of the kind
the question asks for), then at most a few supporting ones, each cited with its section and
page, then a note saying the answer is extractive. Deterministic: ties go to the earlier
section and the earlier line.

``sections`` are what the answer model would read: ``{"label", "text"}``, optionally with
``"ref"`` (``"S3"``), ``"lead"`` (the text just before an excerpt, so a table cut off from
its header still knows its columns), ``"page_start"`` and ``"page_marks"`` (``[[offset in
text, page], …]`` where later pages begin) so a row or sentence cites its own page.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ...navigate.ranking import RankingMemory, remembered, remembered_sentences
from ...text import OFFLINE_NOTE  # noqa: F401 - English's note, read here by callers
from ...text.messages import message
from ...text.row_headings import with_headings
from ...text.tables import Row, table_rows
from ...tree.labels import page_label
from .candidates import AnswerLine, Vocabulary
from .question import Question, read_question, with_owner
from .rows import row_candidates
from .sentences import sentence_candidates

NO_MATCH_NOTE = message("note.no_match")  # English's; each language's is in the catalogue
# How much a row is preferred to a sentence, by what is asked: a figure is best read from
# its table; a date, a name, a reason or a yes/no is said in a sentence.
ROW_PREFERENCE = {
    "reason": -0.5,
    "amount": 0.3,
    "other": 0.3,
    "count": 0.0,
    "date": -0.5,
    "name": -0.5,
    "yesno": -0.2,
}
# Supporting lines must score at least this share of the first line's score, or this lower
# share when they say words of the question no line chosen so far says ("How much does it
# cost and how long is the warranty?" needs a line for each half).
SUPPORT_SHARE = 0.7
NEW_TERMS_SHARE = 0.35


def headed_rows(text: str, lead: str) -> list[Row]:
    """A section's table rows, each with the headings printed above it."""
    return with_headings(text, table_rows(text, lead))


def extractive_answer(
    query: str,
    sections: Sequence[Mapping[str, Any]],
    max_sentences: int = 4,
    memory: RankingMemory | None = None,
    language: str = "",
) -> tuple[str, list[int]]:
    """The answer text and the indexes of the sections it quotes.

    ``max_sentences`` bounds the lines: the answer and up to ``max_sentences - 1`` supports.
    ``memory`` keeps each quoted section's parsed rows and sentences for the next question.
    ``language``: the sections' (ISO 639-1), in which the question and what it is matched
    with are cut and stemmed; English's own stems when none.
    """
    question = with_owner(
        read_question(query, language=language), {str(s.get("file_name") or "") for s in sections}
    )
    rows, spans = [], []
    for s in sections:
        text, lead = str(s.get("text") or ""), str(s.get("lead") or "")
        rows.append(
            remembered(memory, ("rows", text, lead), lambda t=text, h=lead: headed_rows(t, h))  # type: ignore[misc]  # a lambda's defaults bind the loop's values
        )
        spans.append(remembered_sentences(memory, text))
    vocab = Vocabulary(
        [r.label for section in rows for r in section]
        + [text for section in spans for text, _ in section],
        language,
    )
    labels = [str(s.get("label") or "") for s in sections]
    candidates = row_candidates(question, rows, labels, vocab) + sentence_candidates(
        question, spans, vocab
    )
    chosen = choose(question, candidates, max_sentences)
    note = message("note.offline", language)  # the answer quotes the sections: their language
    if not chosen:
        return message("note.no_match", language) + "\n\n" + note, []
    lines = [f"{chosen[0].text} {cite(sections[chosen[0].section], chosen[0].offset, language)}"]
    lines += [
        f"- {named(c, sections, chosen[0])} {cite(sections[c.section], c.offset, language)}"
        for c in chosen[1:]
    ]
    used = list(dict.fromkeys(c.section for c in chosen))
    return "\n".join(lines) + "\n\n" + note, used


def _rank(question: Question, candidate: AnswerLine) -> tuple[float, int, float, int, int]:
    """Best first; equal scores (to two decimals) go to the line that says more of the
    names the question asks about (a spreadsheet's rows all name the asked column: "What
    was the revenue of North?" is the row that says North), then to the larger figure,
    since the same row in a company table and in its segments' tables is largest in the
    company's (a total is at least each of its parts), then to the earlier section and line."""
    bias = ROW_PREFERENCE.get(question.kind, 0.0) if candidate.kind == "row" else 0.0
    named = len(candidate.terms.intersection(question.names))
    return (
        -round(candidate.score + bias, 2),
        -named,
        -candidate.size,
        candidate.section,
        candidate.offset,
    )


def _score(question: Question, candidate: AnswerLine) -> float:
    return -_rank(question, candidate)[0]


def choose(question: Question, candidates: list[AnswerLine], limit: int) -> list[AnswerLine]:
    """The best candidate, then supports that add something: the best of the other kind
    first (a sentence's figure from its table, or a row's sentence), no repeat of a line
    already chosen, nor of its figures."""
    ranked = sorted(candidates, key=lambda c: _rank(question, c))
    if not ranked:
        return []
    first = ranked[0]
    chosen, keys = [first], {first.key}
    best = _score(question, first)
    floor = best * SUPPORT_SHARE
    other = next((c for c in ranked if c.kind != first.kind), None)
    if other is not None and _score(question, other) >= floor:
        ranked = [first, other, *(c for c in ranked[1:] if c is not other)]
    said = set(first.terms)
    metric = question.metric_terms()
    for candidate in ranked[1:]:
        if len(chosen) >= max(1, limit):
            break
        if metric and candidate.kind == "row" and not candidate.terms & metric:
            continue  # a row of another table, about something else
        score = _score(question, candidate)
        adds = bool(candidate.terms - said) and score >= best * NEW_TERMS_SHARE
        if (score < floor and not adds) or candidate.key in keys:
            continue
        if candidate.kind == "row" and any(candidate.figures == c.figures for c in chosen):
            continue  # the same figures from another table
        chosen.append(candidate)
        keys.add(candidate.key)
        said |= candidate.terms
    return chosen


def named(line: AnswerLine, sections: Sequence[Mapping[str, Any]], first: AnswerLine) -> str:
    """A supporting row from another section than the first line's, named by its section
    ("Converse · Revenues, 2023: $2,427 million"): a segment's total must not read as the
    company's. Sentences say what they are about; rows from the same section share it."""
    if line.kind != "row" or line.section == first.section:
        return line.text
    title = section_title(sections[line.section])
    if not title or title == section_title(sections[first.section]):
        return line.text
    return line.text if title.lower() in line.text.lower() else f"{title} · {line.text}"


def section_title(section: Mapping[str, Any]) -> str:
    """The section's own title, from its label ("S3 · Item 8 > Converse, p. 88")."""
    label = str(section.get("label") or "")
    path = label.split(" · ", 1)[-1]
    path = re.sub(r",\s*(?:pp?\.|pages?|slides?|sheets?)\s*[\d–-]+.*$", "", path)
    return path.split(" › ")[-1].split(" > ")[-1].strip()


def cite(section: Mapping[str, Any], offset: int, language: str | None = None) -> str:
    """``[S3, p. 55]`` (``[S3, slide 4]`` in a deck, ``[S3, S. 55]`` in German): the
    section's reference and the page the line starts on, named in the answer's language."""
    ref = str(section.get("ref") or str(section.get("label") or "").split(" · ")[0]).strip()
    page = section.get("page_start")
    for mark_offset, mark_page in section.get("page_marks") or []:
        if mark_offset <= offset:
            page = mark_page
    if page is None:
        return f"[{ref}]"
    return f"[{ref}, {page_label(page, None, section.get('page_unit'), language)}]"
