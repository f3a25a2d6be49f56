"""Opt-in rule sets for kinds of documents, kept out of the generic text rules.

The generic rules know numbering, keywords (PART, Chapter, Article, Section, Item, Note)
and ALL-CAPS titles. A profile adds what only one kind of document does: financial reports
name their statements in any letter case (their pages are tables, so nothing else marks
them), SEC filings run 10-K item titles into the first sentence and glue note headings to
the end of a paragraph. ``detect_profile`` opts a document in on its own evidence; a
setting can force either choice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Words a statement's caption may carry before what it is: "Condensed Consolidated …".
STATEMENT_QUALIFIERS = (
    r"^(?:(?:consolidated|combined|condensed|interim|unaudited|group|company|parent)\s+)*"
)
# The primary statements and reports of a financial filing, in any letter case.
# IFRS reports outside the US: "Group income statement", "Consolidated cash flow
# statement", "Statement of profit or loss and other comprehensive income".
STATEMENT_TITLE = re.compile(
    STATEMENT_QUALIFIERS + r"(?:(?:income|cash\s+flows?)\s+statements?|"
    r"statements?\s+of\s+profit\s+or\s+loss(?:\s+and\s+other\s+comprehensive\s+income)?|"
    r"statements?\s+of\s+(?:consolidated\s+)?(?:income|earnings|operations|"
    r"comprehensive\s+(?:income|loss|earnings)|cash\s+flows?|financial\s+position|"
    r"(?:changes\s+in\s+)?(?:stockholders|shareholders|shareowners|share\s*owners)['’]?\s+"
    r"(?:equity|deficit)|(?:changes\s+in\s+)?equity)|balance\s+sheets?|"
    r"notes\s+to\s+(?:the\s+)?(?:consolidated\s+|condensed\s+)*financial\s+statements|"
    r"report\s+of\s+independent\s+registered\s+public\s+accounting\s+firm|"
    r"independent\s+auditor(?:s|['’]s|s['’])?\s+report(?:\s+to\s+the\s+members\s+of\s+.{1,60})?)"
    r"(?:\s*\(.{0,60}\))?\s*$",
    re.IGNORECASE,
)
# An auditor's report, however its title goes on ("… on the Consolidated Financial
# Statements", "… Regarding Internal Control", "… to the Members of X plc").
AUDIT_REPORT = re.compile(
    r"^(?:report\s+of\s+independent\s+(?:registered\s+public\s+accounting\s+firm|auditors?)|"
    r"independent\s+(?:registered\s+public\s+accounting\s+firm['’]s|auditor(?:s|['’]s|s['’])?)"
    r"\s+report)\b",
    re.IGNORECASE,
)
# The parts every auditor's report is written in, their titles set by the auditing standards
# (PCAOB AS 3101 and AS 2201 in the US, ISA 700/701/706 elsewhere), not by the company, and
# its addressee ("To the Board of Directors and Shareholders of …"), which they require.
AUDIT_PART = re.compile(
    r"^(?:to\s+the\s+(?:board|shareholders|stockholders|shareowners|members)\b|opinions?\b|"
    r"basis\s+for\s+(?:(?:qualified|adverse)\s+)?opinions?\b|"
    r"(?:critical|key)\s+audit\s+matters?\b|definition\s+and\s+limitations?\s+of\b|"
    r"emphasis\s+of\s+(?:a\s+)?matters?\b|material\s+uncertainty\b|other\s+matters?\b|"
    r"other\s+information\b|change\s+in\s+accounting\s+principle\b|"
    r"(?:auditor['’]?s['’]?\s+)?responsibilities\s+(?:of|for)\b|"
    r"report\s+on\s+(?:the\s+)?(?:audit\b|financial\s+statements\b|other\s+legal\b|"
    r"internal\s+control\b))",
    re.IGNORECASE,
)
# "...finished goods. NOTE 3 — PROPERTY, PLANT": a caps note/item heading run into a line.
GLUED_HEADING = re.compile(
    r"(?<=[.!?:;)”\"] )\s*((?:NOTE|ITEM|PART)\s+[0-9IVX]{1,4}[A-C]?\s*[.:\-–—]\s*[A-Z][A-Z0-9 ,&'’()/\-]{3,})$"
)
# Standard titles of 10-K / 10-Q items: when extraction runs an item's title into its first
# sentence ("Business This Annual Report..."), the known title is cut out of the line.
ITEM_TITLES = (
    "Business",
    "Risk Factors",
    "Unresolved Staff Comments",
    "Cybersecurity",
    "Properties",
    "Legal Proceedings",
    "Mine Safety Disclosures",
    "Selected Financial Data",
    "Selected Consolidated Financial Data",
    "Management's Discussion and Analysis of Financial Condition and Results of Operations",
    "Quantitative and Qualitative Disclosures About Market Risk",
    "Financial Statements and Supplementary Data",
    "Financial Statements",
    "Changes in and Disagreements with Accountants on Accounting and Financial Disclosure",
    "Controls and Procedures",
    "Other Information",
    "Directors, Executive Officers, and Corporate Governance",
    "Executive Compensation",
    "Principal Accountant Fees and Services",
    "Principal Accounting Fees and Services",
    "Exhibits, Financial Statement Schedules",
    "Exhibits",
    "Form 10-K Summary",
)
# A filing says what it is on its cover.
_FILING_COVER = re.compile(
    r"securities\s+and\s+exchange\s+commission|\bform\s+(?:10-k|10-q|8-k|20-f|40-f)\b",
    re.IGNORECASE,
)
COVER_PAGES = 3  # where a filing's cover statement is looked for
MIN_STATEMENT_TITLES = 2  # two statements standing alone make a financial report
MAX_STATEMENT_LINE_CHARS = 120  # a statement's title line, with "(in millions …)"


@dataclass(frozen=True)
class Profile:
    name: str
    title_pattern: re.Pattern[str] | None = None  # headings in any letter case
    known_item_titles: tuple[str, ...] = field(default=())
    glued_heading: re.Pattern[str] | None = None


GENERIC = Profile("generic")
FINANCIAL = Profile("financial report", STATEMENT_TITLE, ITEM_TITLES, GLUED_HEADING)
PROFILES = {profile.name: profile for profile in (GENERIC, FINANCIAL)}


def detect_profile(pages: list[str]) -> Profile:
    """The financial profile for a filing (cover statement) or any document with at least
    two financial statements as titles of their own; the generic rules otherwise."""
    if any(_FILING_COVER.search(page) for page in pages[:COVER_PAGES]):
        return FINANCIAL
    seen: set[str] = set()
    for page in pages:
        lines = [" ".join(line.split()) for line in page.split("\n")]
        for text, nxt in zip(lines, [*lines[1:], ""], strict=True):
            # a title may wrap: "CONSOLIDATED STATEMENTS OF" / "CASH FLOWS"
            for title in (text, f"{text} {nxt}"):
                if text and len(title) < MAX_STATEMENT_LINE_CHARS and STATEMENT_TITLE.match(title):
                    seen.add(title.lower())
        if len(seen) >= MIN_STATEMENT_TITLES:
            return FINANCIAL
    return GENERIC


def known_title(profile: Profile, line: str) -> str | None:
    """The profile's standard item title that ``line`` starts with (spacing-insensitive)."""
    have = _letters(line)
    for known in profile.known_item_titles:
        if have.startswith(_letters(known)):
            return known
    return None


def split_glued_headings(profile: Profile, lines: list[str], min_chars: int) -> list[str]:
    """Split ``...finished goods. NOTE 3 — PROPERTY, PLANT`` into body + heading lines."""
    if profile.glued_heading is None:
        return [line.rstrip() for line in lines]
    out: list[str] = []
    for line in lines:
        line = line.rstrip()
        m = profile.glued_heading.search(line) if len(line) > min_chars else None
        if m and m.start(1) > 0:
            out.append(line[: m.start(1)].rstrip())
            out.append(m.group(1))
        else:
            out.append(line)
    return out


def _letters(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalpha())
