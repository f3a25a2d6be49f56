"""One line → a heading candidate or nothing, decided on the line alone.

Numbered (``1.2 Scope``), keyword (``PART II``, ``Item 7.``, ``Note 3``, ``§ 12``), clause
(``52.236-5 …``), ALL-CAPS and, with a profile, titles in any case (financial statements).
What is never a heading: sentences (lowercase start, trailing comma, many words ending in a
period), table rows (mostly digits), cross-references (``Item 8 of this report``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from .profiles import GENERIC, Profile
from .thresholds import (
    LINE_SLACK_CHARS,
    MAX_CAPS_CHARS,
    MAX_CAPS_WORDS,
    MAX_KEYWORD_NUMBER_DIGITS,
    MAX_NUMBERED_TITLE_WORDS,
    MAX_RUN_IN_TITLE_WORDS,
    MAX_TITLE_CHARS,
    MAX_TITLE_WORDS,
    MAX_TOP_NUMBER,
    MIN_CAPS_CHARS,
    MIN_CAPS_LETTER_SHARE,
    MIN_CAPS_LETTERS,
    MIN_NUMBERED_LETTER_SHARE,
    MIN_SINGLE_CAPS_WORD_LETTERS,
    MIN_TITLE_LETTERS,
    NUMBERED_SENTENCE_WORDS,
    SENTENCE_TITLE_WORDS,
)


class Kind(StrEnum):
    PART = "part"
    CHAPTER = "chapter"
    ARTICLE = "article"
    SUBPART = "subpart"
    SECTION = "section"
    ITEM = "item"
    NOTE = "note"
    CLAUSE = "clause"  # "52.236-5 Material and Workmanship."
    NUMBER = "number"  # "2.1 Storage"
    CAPS = "caps"  # "RISK FACTORS"
    STATEMENT = "statement"  # a profile's title in any case ("Consolidated Balance Sheets")


# "Statement of Cash Flows (continued)", "Risk Factors – cont'd": the section before goes on
# (on a page, and on a contents page that goes on from the one before).
CONTINUED_TITLE = re.compile(r"[(\[–—-]\s*(?:continued|cont'?d|cont\.)\s*[)\]]?\s*:?\s*$", re.I)

# Keyword headings rank by the words themselves; numbered ones by their depth below NUMBER.
RANK = {
    Kind.PART: 10.0,
    Kind.CHAPTER: 12.0,
    Kind.ARTICLE: 12.0,
    Kind.SUBPART: 20.0,
    Kind.SECTION: 25.0,
    Kind.ITEM: 30.0,
    Kind.NOTE: 31.0,
    Kind.CLAUSE: 35.0,
}
NUMBER_RANK = 30.0  # a numbered heading of depth d ranks 30 + d: "1" with Items, "1.2" below
UNRANKED = {Kind.CAPS, Kind.STATEMENT}  # one level below the latest ranked heading

# The words that label a document's parts, in English and the major languages of Europe
# (the words as they head a line: "Kapitel 3", "Chapitre IV", "Глава 2", "§ 5").
KEYWORDS: dict[Kind, tuple[str, ...]] = {
    Kind.PART: ("Part", "Teil", "Partie", "Parte", "Deel", "Część", "Часть", "Titre"),
    Kind.CHAPTER: ("Chapter", "Kapitel", "Chapitre", "Capítulo", "Capitolo", "Hoofdstuk",
                   "Rozdział", "Kapittel", "Глава"),
    Kind.ARTICLE: ("Article", "Artikel", "Artículo", "Articolo", "Artigo", "Artykuł", "Статья"),
    Kind.SUBPART: ("Subpart",),
    Kind.SECTION: ("Section", "Abschnitt", "Sección", "Sezione", "Secção", "Seção", "Afdeling",
                   "Раздел", "§"),
    Kind.ITEM: ("Item",),
    Kind.NOTE: ("Note",),
}  # fmt: skip
_KEYWORDS = {word.lower(): kind for kind, words in KEYWORDS.items() for word in words}
_KEYWORD_RE = re.compile(
    "^(?P<kw>"
    + "|".join(
        re.escape(form)
        for word in sorted(_KEYWORDS, key=len, reverse=True)
        for form in dict.fromkeys((word.capitalize(), word.upper()))
    )
    + r")\s*(?P<num>\d{1,4}(?:\.\d{1,4})*[A-Z]?|[IVXLC]{1,7})"
    r"(?P<sep>\s*[.:\-–—]+\s*|\s+|$)(?P<title>.*)$"
)
# What a table of contents is titled, in English and the major languages (a regex).
CONTENTS_WORDS = (
    r"(?:table\s+of\s+)?contents|index|inhaltsverzeichnis|inhalt|table\s+des\s+mati[eè]res"
    r"|sommaire|[ií]ndice(?:\s+general)?|sommario|inhoudsopgave|inhoud|spis\s+treści"
    r"|содержание|оглавление|目次|目录|目錄|차례|목차"
)
# Chinese, Japanese and Korean number their parts around the word: 第1章, 第二節, 第3条,
# 제1장, 제2절, 제3조 (chapter, section, article, part), or only after it: 1章, 1장.
CJK_KINDS = {
    "章": Kind.CHAPTER, "장": Kind.CHAPTER, "節": Kind.SECTION, "节": Kind.SECTION,
    "절": Kind.SECTION, "条": Kind.ARTICLE, "條": Kind.ARTICLE, "조": Kind.ARTICLE,
    "部": Kind.PART, "編": Kind.PART, "编": Kind.PART, "편": Kind.PART, "부": Kind.PART,
}  # fmt: skip
_CJK_NUMERALS = "〇一二三四五六七八九"
_CJK_KEYWORD_RE = re.compile(
    r"^(?:(?:第|제)\s*(?P<num>\d{1,4}|[〇一二三四五六七八九十百]{1,6})|(?P<bare>\d{1,3}))\s*"
    rf"(?P<kw>[{''.join(CJK_KINDS)}])(?P<sep>[\s.:：、]*)(?P<title>.*)$"
)


def cjk_number(num: str) -> int | None:
    """``12`` or ``十二`` → 12 (up to 999), else None."""
    if num.isdigit():
        return int(num)
    total, digit = 0, 0
    for ch in num:
        if ch in _CJK_NUMERALS:
            digit = _CJK_NUMERALS.index(ch)
        elif ch in "十百":
            total += (digit or 1) * (10 if ch == "十" else 100)
            digit = 0
        else:
            return None
    return total + digit


def _cjk_keyword_candidate(m: re.Match[str]) -> Candidate | None:
    number = cjk_number(m.group("num") or m.group("bare"))
    title = m.group("title").strip()
    if number is None or (title and len(title) > MAX_TITLE_CHARS) or "。" in title:
        return None  # "第 9 章使您的 Debian 系统保持最新状态。": a sentence citing the chapter
    kind = CJK_KINDS[m.group("kw")]
    full = m.string.strip()
    return Candidate(kind, full, f"{kind} {number}", None, is_toc_title(title, full))


_NUMBER_RE = re.compile(r"^(?P<num>\d{1,3}(?:\.\d{1,4}){0,5})(?P<dot>\.?)\s+(?P<title>\S.*)$")
_CLAUSE_RE = re.compile(r"^(?P<num>\d{1,3}\.\d{1,4}-\d{1,4})\.?\s+(?P<title>\S.*)$")
_ROMAN_RE = re.compile(r"^[IVXLC]{1,7}$")
_TRAILING_PAGE_RE = re.compile(r"(?:\.{3,}|…+|\s)\s*(\d{1,3})\s*$")
_DOT_LEADER_RE = re.compile(r"(?:\.\s?){4,}|…{2,}|_{4,}")
_CONNECTORS = {"AND", "OR", "OF", "TO", "FOR", "IN", "WITH", "BY", "ON", "AT", "&", "-"}
_REFERENCE_START = re.compile(r"^(of|and|or|to|in|through|thru|above|below|hereof|herein)\b")
_SMALL_WORDS = {"a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to"}
_TABLE_LABELS = {"N/A", "NONE", "TOTAL", "TOTALS", "NOT APPLICABLE"}
# The labels of admonitions, the boxed asides of DocBook, Sphinx and Texinfo manuals ("Tip",
# "Warning"), in English and the major languages: set bold or large above their box, they
# look like headings, but the box belongs to the section it stands in. A manual that
# printed each one as a section read as hundreds of siblings titled "Note" and "Tip".
ADMONITIONS = frozenset({
    "note", "tip", "hint", "warning", "caution", "important", "danger", "attention",
    "hinweis", "tipp", "warnung", "achtung", "wichtig", "remarque", "astuce", "avertissement",
    "nota", "consejo", "aviso", "advertencia", "suggerimento", "avvertenza", "attenzione",
    "opmerking", "waarschuwing", "uwaga", "wskazówka", "ostrzeżenie", "примечание",
    "подсказка", "предупреждение", "внимание", "注意", "警告", "提示", "참고", "경고",
})  # fmt: skip


def is_admonition(title: str) -> bool:
    """An admonition's label alone ("Note", "WARNING:"), not a titled heading."""
    return title.strip().rstrip(":：").strip().lower() in ADMONITIONS


@dataclass(frozen=True)
class Candidate:
    """A line that looks like a heading, before TOC and sequence filtering."""

    kind: Kind
    title: str
    key: str  # identity used to spot TOC entries repeated later ("item 7", "number 1.2")
    number: tuple[int, ...] | None = None
    toc_like: bool = False  # ends in a page number or dotted leader
    rest: str = ""  # run-in text after the title ("Definitions. As used here...") kept as body


def classify_line(line: str, profile: Profile = GENERIC) -> Candidate | None:
    """Heading candidate for one line, or None."""
    text = " ".join(line.split())
    if not text or len(text) > MAX_TITLE_CHARS + LINE_SLACK_CHARS:
        return None
    m = _KEYWORD_RE.match(text)
    if m:
        return _keyword_candidate(m)
    m = _CJK_KEYWORD_RE.match(text)
    if m:
        return _cjk_keyword_candidate(m)
    if text.endswith((",", ";")):
        return None
    m = _CLAUSE_RE.match(text)
    if m and title_ok(m.group("title")):
        title = m.group("title")
        return Candidate(
            Kind.CLAUSE, text, f"clause {m.group('num')}", None, is_toc_title(title, text)
        )
    m = _NUMBER_RE.match(text)
    if m:
        return _number_candidate(m, text)
    if (
        profile.title_pattern is not None
        and profile.title_pattern.match(text)
        and not text.endswith(".")
        and not text[-1].isdigit()
    ):
        title = re.sub(r"\s*\(.*$", "", text)  # drop "(in millions, except per share data)"
        return Candidate(Kind.STATEMENT, title, f"statement {title.lower()}")
    if is_caps_heading(text):
        return Candidate(Kind.CAPS, text, f"caps {text.lower()}")
    return None


def _keyword_candidate(m: re.Match[str]) -> Candidate | None:
    kind = _KEYWORDS[m.group("kw").lower()]
    num = m.group("num")
    sep = m.group("sep")
    title = m.group("title").strip()
    if sep.strip() == "." and title[:1].isdigit():
        return None  # "Section 16.2, “Feedback”": the number went on; a cross-reference
    if _ROMAN_RE.match(num) and kind not in {Kind.PART, Kind.CHAPTER, Kind.ARTICLE}:
        return None  # "Item IV" is not a thing; "Section I" is too ambiguous with words
    if kind in {Kind.ITEM, Kind.NOTE} and not re.fullmatch(
        rf"\d{{1,{MAX_KEYWORD_NUMBER_DIGITS}}}[A-Z]?", num
    ):
        return None
    if kind == Kind.SECTION and not re.fullmatch(r"\d{1,3}(?:\.\d{1,3})*", num):
        return None  # "Section 1350 Certifications", "Section 409A": references, not parts
    if title.endswith(",") and (title.upper() != title or sep.strip() == ""):
        return None  # a sentence or a cross-reference list, not a wrapped caps title
    if title:
        if _REFERENCE_START.match(title) or not title_ok(title.rstrip(",")):
            return None  # "Item 8 of this report ...", "Part II, Item 7" (comma rejected above)
        if not sep.strip() and kind in {Kind.ITEM, Kind.NOTE} and title[0].isdigit():
            return None
    full = m.string.strip()
    rest = ""
    run_in = re.search(r"[.:]\s+(?=[A-Z“\"(])", title)
    if run_in and len(title[: run_in.start()].split()) <= MAX_RUN_IN_TITLE_WORDS:
        cut = len(full) - len(title) + run_in.start() + 1
        full, rest = full[:cut], full[cut:].strip()
    return Candidate(kind, full, f"{kind} {num.lower()}", None, is_toc_title(title, full), rest)


def _number_candidate(m: re.Match[str], text: str) -> Candidate | None:
    num = m.group("num")
    title = m.group("title")
    parts = tuple(int(x) for x in num.split("."))
    if len(parts) == 1 and parts[0] > MAX_TOP_NUMBER or parts[0] == 0:
        return None
    if not title_ok(title, max_words=MAX_NUMBERED_TITLE_WORDS) or not (
        title[0].isalpha() or title[0] in "\"'“("
    ):
        return None
    letters = sum(c.isalpha() for c in title)
    visible = max(1, len(title.replace(" ", "")))
    if letters < MIN_TITLE_LETTERS or letters / visible < MIN_NUMBERED_LETTER_SHARE:
        return None  # table rows: "1 2,345 6,789"
    words = title.split()
    if title.endswith(".") and len(words) >= NUMBERED_SENTENCE_WORDS:
        return None  # a numbered sentence, not a title
    if len(parts) == 1 and not m.group("dot"):
        lowercase = any(w[0].islower() and w not in _SMALL_WORDS for w in words)
        if len(words) > NUMBERED_SENTENCE_WORDS or lowercase:
            return None  # "5 Outlet Centers in fiscal 2024." is a sentence
    return Candidate(Kind.NUMBER, text, f"number {num}", parts, is_toc_title(title, text))


def title_ok(title: str, max_words: int = MAX_TITLE_WORDS) -> bool:
    """A heading title: starts with a capital (or digit/quote/paren), short, not a sentence."""
    title = title.strip()
    if not title:
        return False
    first = next((c for c in title if c.isalnum()), "")
    if not first or first.islower() or title[0].islower():
        return False
    words = title.split()
    if len(words) > max_words or len(title) > MAX_TITLE_CHARS:
        return False
    if title.endswith((",", ";")):
        return False
    return not (title.endswith(".") and len(words) > SENTENCE_TITLE_WORDS)


def is_toc_title(title: str, full: str) -> bool:
    """A title with dotted leaders or a trailing page number: a table-of-contents entry."""
    if _DOT_LEADER_RE.search(full):
        return True
    label = _KEYWORD_RE.match(title.strip())
    if label and not label.group("title"):
        return False  # "1 Chapter 1": the number belongs to the label, not a page reference
    m = _TRAILING_PAGE_RE.search(title) if title else None
    return bool(m and sum(c.isalpha() for c in title[: m.start()]) >= 2)


def ends_with_page_reference(line: str) -> bool:
    return bool(_TRAILING_PAGE_RE.search(line))


def is_caps_heading(text: str) -> bool:
    """Short line of capitals and few digits: a heading in most reports and statutes."""
    if len(text) < MIN_CAPS_CHARS or len(text) > MAX_CAPS_CHARS or any(c.islower() for c in text):
        return False
    letters = sum(c.isupper() for c in text)  # capitals: a script without case has none
    visible = len(text.replace(" ", ""))
    if letters < MIN_CAPS_LETTERS or letters / visible < MIN_CAPS_LETTER_SHARE:
        return False
    words = text.split()
    if len(words) > MAX_CAPS_WORDS or (len(words) == 1 and letters < MIN_SINGLE_CAPS_WORD_LETTERS):
        return False
    if text.endswith((",", ";", ":")) or text[-1].isdigit():
        return False
    if words[0] in _CONNECTORS or "%" in text or "$" in text:
        return False  # "AND TAXES", "CHANGE % CHANGE": table headers and wrapped fragments
    if text[0] in "([" or text.endswith(")") and "(" in text[:3]:
        return False  # "(MILLIONS)", "(UNAUDITED)"
    return text.upper() not in _TABLE_LABELS and not is_admonition(text)


@dataclass
class Found:
    """A candidate where it stands: lines ``start`` to ``end`` (exclusive) of a page."""

    page: int
    start: int
    end: int
    cand: Candidate
    rank: float = 0.0
    level: int = 1

    @property
    def position(self) -> tuple[int, int]:
        return self.page, self.start
