"""What ``bench.tree_quality`` counts as a junk summary or a junk tag (pure functions).

Written from what a reader expects of a label (issue 37), not from the summarizer's code, so
the code is not graded by its own patterns:
- a summary is *junk* when it is the section's heading again (or an ancestor's), a heading
  in capitals, a table's header or a row of figures, or boilerplate copied from the page (a
  cover page's legal lines, a contents page, a signature block, a running header or
  footer); a section with text of its own and no summary at all is junk too;
- a tag is *junk* when it is a lone all-caps word, a roman numeral, a bare number, amount,
  percentage or year, a stopword, a broken word, a sentence rather than a phrase, or a
  phrase on most of the document's sections (the company's own name on every section).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_NUMBERISH = re.compile(
    r"^[\s$€£¥(]*[-–+]?\d[\d,.]*\s*(?:%|percent|bps|million|billion|thousand|[mbk]n?)?\)?$",
    re.I,
)
_ROMAN = re.compile(
    r"^(?=[ivxlcdm]+$)m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$", re.I
)
_YEARISH = re.compile(r"^(?:fy|fiscal|q[1-4])?\s*'?(?:19|20)?\d\d$", re.I)
STOPWORDS = frozenset(
    """a an and are as at be but by for from has have he her his i in into is it its of on or
    our she that the their them they this those to was we were which who will with you your
    item items part note notes page table total other net year years""".split()
)
# Lines a filing prints on its cover, contents page, signature page or in its running
# headers: copied into a summary, they say nothing about the section.
BOILERPLATE = re.compile(
    r"indicate by check mark|washington,?\s+d\.?\s?c\.?\s+20549|commission file number|"
    r"\(exact name of registrant|/s/|has duly caused this report|pursuant to the requirements "
    r"of section|^\s*table of contents\b|\bform 10-[kq]\s+\d{1,3}\s*$|\bpage\s+\d+\s+of\s+\d+|"
    r"^\s*\(?(?:dollars|amounts|\$)?\s*in\s+(?:millions|thousands|billions)\b|"
    r"^\s*\(mark one\)|^\s*(?:fiscal\s+)?years?\s+ended\b[^.]{0,40}$",
    re.I,
)
MIN_TEXT_WORDS = 12  # a section with fewer words of its own may go without a summary
NUMERIC_SHARE = 0.4  # a summary whose tokens are this much figures is a row or a header
MAX_TAG_WORDS = 6  # a longer "tag" is a sentence
COMMON_SHARE = 0.5  # a tag on more than half of the sections names the document, not them
MIN_SECTIONS_FOR_COMMON = 8


def norm(text: str) -> str:
    return " ".join(w.lower() for w in _WORD.findall(text))


def _titles(node: dict[str, Any]) -> list[str]:
    number = str(node.get("number") or "")
    title = str(node.get("title") or "")
    path = [p.strip() for p in str(node.get("path") or "").split(">")]
    return [t for t in {title, f"{number} {title}".strip(), *path} if t]


def summary_is_junk(node: dict[str, Any]) -> bool:
    """Whether the section's summary fails to say what the section holds."""
    summary = " ".join(str(node.get("summary") or "").split())
    if not summary:
        return len(_WORD.findall(str(node.get("text") or ""))) >= MIN_TEXT_WORDS
    own = norm(summary)
    if not own:
        return True
    if any(own == norm(t) or (len(own) >= 8 and own in norm(t)) for t in _titles(node)):
        return True
    words = _WORD.findall(summary)
    if len(words) >= 3 and not any(c.islower() for c in summary):
        return True  # a heading or a header in capitals
    tokens = summary.split()
    figures = sum(1 for t in tokens if _NUMBERISH.match(t.strip(",;:")) or t in {"%", "$"})
    if tokens and figures / len(tokens) >= NUMERIC_SHARE:
        return True
    return bool(BOILERPLATE.search(summary))


_COMMON_CACHE: dict[int, tuple[Any, Counter[str]]] = {}


def _tag_counts(document: dict[str, Any]) -> Counter[str]:
    """How many sections of the document carry each tag (by its words)."""
    key = id(document)
    cached = _COMMON_CACHE.get(key)
    if cached and cached[0] is document:
        return cached[1]
    counts: Counter[str] = Counter()
    for node in (document.get("flat_nodes") or {}).values():
        counts.update({norm(str(t)) for t in node.get("tags") or []})
    _COMMON_CACHE.clear()
    _COMMON_CACHE[key] = (document, counts)
    return counts


def tag_is_junk(tag: str, node: dict[str, Any], document: dict[str, Any]) -> bool:
    """Whether the tag fails to name a topic of the section."""
    text = " ".join(str(tag).split())
    if not text or "\n" in str(tag) or "|" in text:
        return True
    words = _WORD.findall(text)
    if not words:
        return True  # a bare number, amount, percentage or symbol
    if _NUMBERISH.match(text) or _YEARISH.match(text):
        return True
    if len(words) == 1:
        word = words[0]
        if _ROMAN.match(word) or word.lower() in STOPWORDS:
            return True
        if len(word) >= 2 and word.isupper():
            return True  # a lone all-caps word
        if len(word) <= 2:
            return True  # a broken word ("N", "IKE") or a stray letter
    if len(text.split()) > MAX_TAG_WORDS:
        return True
    sections = len(document.get("flat_nodes") or {})
    if sections >= MIN_SECTIONS_FOR_COMMON:
        if _tag_counts(document)[norm(text)] > COMMON_SHARE * sections:
            return True
    return False
