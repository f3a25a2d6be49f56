"""What a question asks for: its kind, its periods, its metric and the words for it.

The extractive answer picks a table row or a sentence by how well it fits the question,
and that needs more than word overlap: "How many people …" wants a count with its noun,
"What were capital expenditures in 2018?" wants the 2018 column of the row that
documents call "Purchases of property, plant and equipment". The vocabularies below are
named constants (English; extend or replace them for other languages or domains); the
rest is layout and digits.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache

from ...text.numbers import DATED_MONTH, years_in
from ...text.tokens import STOPWORDS, WORD, tokenize

# What the question asks for, by its opening words (first match wins): English, then the
# same asks in German, French, Spanish, Italian, Portuguese, Dutch, Russian, Arabic,
# Chinese, Japanese and Korean (the last four written without spaces: no word boundaries).
QUESTION_KINDS: tuple[tuple[str, str], ...] = (
    (  # a cause or an explanation, said in a sentence, even of a figure ("why did it fall?")
        "reason",
        r"^\s*why\b|\bwhat (?:drove|drives|caused|causes|led to|explains?|contributed to)\b"
        r"|\breasons? (?:for|why|behind)\b|\bwarum\b|\bweshalb\b|\bpourquoi\b|\bpor ?qu[eé]\b"
        r"|\bperch[eé]\b|\bwaarom\b|\bпочему\b|لماذا|为什么|為什麼|なぜ|どうして|왜",
    ),
    (
        "count",
        r"\bhow many\b|\bnumber of\b|\bheadcount\b|\bwie ?viele\b|\banzahl\b|\bcombien de\b"
        r"|\bnombre de\b|\bcu[aá]nt[oa]s\b|\bn[uú]mero de\b|\bquant[ie]\b|\bquant[oa]s\b"
        r"|\bhoeveel\b|\bсколько\b|\bчисло\b|كم|多少|几个|幾個|何人|何個|何件|いくつ|몇",
    ),
    (
        "date",
        r"^\s*when\b|\bwhat (?:date|day|month|year)\b|\bwhich (?:date|day|month|year)\b"
        r"|\bwann\b|\bquand\b|\bcu[aá]ndo\b|\bquando\b|\bwanneer\b|\bкогда\b|متى"
        r"|什么时候|何时|何時|哪一年|いつ|何年|何日|언제",
    ),
    (
        "name",
        r"^\s*who\b|\bwho (?:is|was|are|were)\b|\bname of\b|\bwhich (?:company|person|firm)\b"
        r"|^\s*wer\b|^\s*qui\b|\bqui (?:est|a|sont)\b|\bqui[eé]n(?:es)?\b|^\s*chi\b|\bquem\b"
        r"|\bкто\b|^\s*من\b|谁|誰|だれ|누구",
    ),
    (
        "amount",
        r"\bhow much\b|\bwhat (?:is|was|were|are)\b|\bamount\b|\btotal\b|\bvalue\b"
        r"|\bwie ?viel\b|\bwie hoch\b|\bbetrag\b|\bcombien\b|\bmontant\b|\bcu[aá]nto\b"
        r"|\bimporte\b|\bquanto\b|\bimporto\b|\bbedrag\b|\bсколько стоит\b|\bсумма\b"
        r"|いくら|多少钱|얼마",
    ),
    ("yesno", r"^\s*(?:is|was|are|were|did|does|do|has|have|had|can|will|would)\b"),
)
# A question asking for a cause: answered by the sentence that gives it, never computed.
REASON = re.compile(dict(QUESTION_KINDS)["reason"], re.I)
COMPARE = re.compile(
    r"\bchang\w*|\bincreas\w*|\bdecreas\w*|\bgr[eo]w\w*|\bdeclin\w*|\bdrop\w*|\bcompar\w*"
    r"|\bbetween\b|\bversus\b|\bvs\.?|\bdifference\b|\btrend\w*|\byear[- ]over[- ]year\b",
    re.I,
)
# A superlative asks which one when a determiner makes it one ("which segment had the
# highest revenue", "its largest customer"); without one, the word is part of a term:
# "future minimum lease payments", "nonlinear least squares", "(by top line)".
_THE = r"\b(?:the|its|their|our)\s+(?:very\s+|single\s+)?"
SUPERLATIVES = {
    "max": re.compile(_THE + r"(?:highest|largest|biggest|greatest|most|maximum|top)\b", re.I),
    "min": re.compile(_THE + r"(?:lowest|smallest|least|minimum|fewest)\b", re.I),
}
# Words of instruction that name no metric ("Answer in USD millions, based on the details
# shown in …"): left out when matching a row label or sentence.
INSTRUCTION_WORDS = frozenset(
    """what which how much many who whom whose when where why answer response respond
    question give provide state please using use used based basing base relying rely detail
    shown show information primarily primary outlined clearly according drawing conclusion
    stated only judgment judgement calculate compute computed extract assume assuming
    perspective analyst round rounded decimal place usd dollar million billion
    thousand percent percentage reported report fy fiscal year end ended ending figure amount
    value quantity number count company firm kind sort time period date as of
    did does do is was were are has have had among one highest largest biggest greatest
    lowest smallest least maximum minimum top fewest change changed changes increase
    increased decrease decreased grow grew growth decline declined drop dropped compare
    compared comparison difference trend between versus vs
    bring brought generate generated make made carry carried hold held post posted record
    recorded recognize recognized""".split()
)
# The statements a question may point at, and how documents title them.
STATEMENT_HINTS: dict[str, tuple[str, str]] = {
    # question phrase: (the words it is removed as, regex of a section that is that statement)
    "cash flow statement": ("cash flow statement", r"cash flows?"),
    "statement of cash flows": ("statement of cash flows", r"cash flows?"),
    "cash flow": ("cash flow", r"cash flows?"),
    "balance sheet": ("balance sheet", r"balance sheets?|financial position|\bassets\b"),
    "statement of financial position": (
        "statement of financial position",
        r"financial position|balance sheets?",
    ),
    "income statement": (
        "income statement",
        r"statements? of (?:consolidated )?(?:income|operations|earnings)|income statements?",
    ),
    "statement of income": (
        "statement of income",
        r"statements? of (?:income|operations|earnings)|income statements?",
    ),
    "statement of operations": (
        "statement of operations",
        r"statements? of (?:income|operations|earnings)",
    ),
    "p&l": ("p&l", r"statements? of (?:income|operations|earnings)"),
}
# A metric and the names documents print for it: a question naming one phrase matches a
# row or sentence naming any of them. Extend for other domains or languages.
METRIC_SYNONYMS: tuple[tuple[str, ...], ...] = (
    (
        "revenue",
        "revenues",
        "total revenues",
        "net revenues",
        "net sales",
        "total net sales",
        "sales",
        "turnover",
        "top line",
    ),
    (
        "capital expenditure",
        "capital expenditures",
        "capex",
        "purchases of property and equipment",
        "purchases of property, plant and equipment",
        "additions to property and equipment",
        "payments for property and equipment",
        "purchases of land, buildings, and equipment",
        "purchases of land, buildings and equipment",
        "capital spending",
    ),
    (
        "net ppne",
        "ppne",
        "net pp&e",
        "property, plant and equipment net",
        "property, plant and equipment, net",
        "property and equipment, net",
        "net property, plant and equipment",
    ),
    (
        "cogs",
        "cost of goods sold",
        "cost of sales",
        "cost of revenue",
        "total cost of revenue",
        "cost of products sold",
    ),
    ("net income", "net earnings", "net profit", "net income attributable"),
    ("operating income", "operating profit", "income from operations", "operating earnings"),
    ("employees", "employee", "employ", "employed", "people", "headcount", "workforce", "staff"),
    ("inventory", "inventories", "merchandise inventories"),
    ("depreciation and amortization", "d&a", "depreciation, amortization"),
    (
        "operating cash flow",
        "cash from operations",
        "net cash provided by operating activities",
        "cash provided by operating activities",
    ),
    ("dividends", "dividends paid", "cash dividends", "dividends declared"),
    ("accounts payable", "payables", "trade payables"),
    ("accounts receivable", "receivables", "trade receivables"),
    ("debt", "total debt", "long-term debt", "borrowings"),
    ("research and development", "r&d"),
    ("selling, general and administrative", "sg&a"),
    ("earnings per share", "eps", "diluted earnings per share"),
    ("gross profit", "gross margin"),
    ("effective tax rate", "tax rate"),
    (
        "provision for income taxes",
        "income tax expense",
        "income tax provision",
        "provision for taxes on income",
    ),
    ("share repurchases", "buybacks", "repurchases of common stock", "purchases of treasury stock"),
    ("stores", "store count", "number of stores", "total stores"),
)


def _named_groups(text: str, synonyms: tuple[tuple[str, ...], ...]) -> list[tuple[str, ...]]:
    """The synonym groups ``text`` names; a phrase inside a longer one of another group
    names nothing of its own ("sales" in "cost of sales" is not revenue)."""
    hits = [(m.start(), m.end(), g) for g, rx in _phrase_patterns(synonyms)
            for m in rx.finditer(text)]  # fmt: skip
    kept = {
        g for start, end, g in hits
        if not any(s <= start and end <= e and e - s > end - start and h != g
                   for s, e, h in hits)
    }  # fmt: skip
    return [synonyms[g] for g in sorted(kept)]


@lru_cache(maxsize=8)
def _phrase_patterns(
    synonyms: tuple[tuple[str, ...], ...],
) -> tuple[tuple[int, re.Pattern[str]], ...]:
    """Each synonym phrase as a compiled pattern with its group (compiled once per table of
    synonyms: every question, and every operand of a computation, reads them all)."""
    return tuple((g, re.compile(rf"(?<![\w&]){re.escape(p)}(?![\w&])"))
                 for g, group in enumerate(synonyms) for p in group)  # fmt: skip


# Words that say little in a row label on their own ("Total", "Net", "Other").
WEAK_WORDS = frozenset("total net other gross amount value".split())


_POSSESSIVE = re.compile(r"['’]s?$")


def stem(token: str) -> str:
    """A light suffix strip so "employed"/"employ", "purchases"/"purchase" and
    "liabilities"/"liability" match, while "currency" and "current" stay apart."""
    word = _POSSESSIVE.sub("", token.lower())
    if len(word) > 5 and word.endswith(("ies", "ied")):
        word = word[:-3] + "y"
    elif len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 5 and word.endswith(("ion", "ions")):
        word = word[: word.rindex("ion")]
    elif len(word) > 4 and word.endswith("ed"):
        word = word[:-2]
    elif len(word) > 4 and word.endswith("es") and word[-3] in "sxz":
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    if len(word) > 4 and word.endswith("e"):
        word = word[:-1]
    return word


# Typographic punctuation an English text is set with: curly quotes, dashes, non-breaking
# spaces. Read as their ASCII forms, so that a sentence holding "Company’s" has its words
# stemmed as a question typed in ASCII has them ("liabilities": liability, not liabiliti).
_TYPOGRAPHIC = str.maketrans({
    "’": "'", "‘": "'", "“": '"', "”": '"', "„": '"', "–": "-", "—": "-", "‑": "-",
    "\xa0": " ", "\u2009": " ", "\u202f": " ", "…": "...", "•": " ",
})  # fmt: skip


def plain_punctuation(text: str) -> str:
    """``text`` with its typographic punctuation in ASCII (letters untouched)."""
    return text.translate(_TYPOGRAPHIC)


def stems(text: str, language: str = "") -> list[str]:
    """The stems of a text's words (stopwords dropped), in order. Text in other scripts is
    cut as the offline ranking cuts it (words without accents; bigrams where words have no
    spaces between them), the same for a question and the sentences it is matched with; a
    ``language`` other than English cuts and stems every word in it."""
    if language not in ("", "en"):
        return tokenize(text, language)
    text = plain_punctuation(text)
    if not text.isascii():
        return [stem(w) if w.isascii() else w for w in tokenize(text)]
    words = (w.strip("'’-") for w in WORD.findall(text.lower()))
    return [stem(w) for w in words if w and w not in STOPWORDS]


@dataclass
class Question:
    """A question as the extractive answer reads it."""

    text: str
    kind: str = "other"  # reason, count, date, name, amount, yesno or other
    years: list[int] = field(default_factory=list)
    compare: bool = False
    superlative: str = ""  # "max", "min" or ""
    metric: list[str] = field(default_factory=list)  # stems naming what is asked
    names: list[str] = field(default_factory=list)  # stems of the names it mentions
    phrases: list[list[str]] = field(default_factory=list)  # synonym phrases, as stems
    statements: list[str] = field(default_factory=list)  # regexes of hinted statements
    # the names a row may be labelled by: not the document's own (see :func:`with_owner`)
    subjects: list[str] = field(default_factory=list)
    # initials of runs of capitalised words → the words: "AWS" → "Amazon Web Services"
    acronyms: dict[str, str] = field(default_factory=dict)

    def metric_terms(self) -> frozenset[str]:
        """The stems that name the metric: its words and its synonyms' (not the names)."""
        return self._metric_terms

    def terms(self) -> frozenset[str]:
        """Every stem that may name the answer: the metric, its synonyms, the names."""
        return self._terms

    @cached_property
    def head(self) -> str:
        """The metric's head: the first word the question names it by that is not a weak
        one ("goodwill" in "goodwill recorded on the acquisition"; "" when none)."""
        return next((w for w in self.metric if w not in WEAK_WORDS), "")

    @cached_property
    def _metric_terms(self) -> frozenset[str]:
        return frozenset(self.metric).union(*self.phrases)

    @cached_property
    def _terms(self) -> frozenset[str]:
        return self._metric_terms.union(self.names)


# Instruction words and their stems ("using", "use"): not the metric's words.
_INSTRUCTION_STEMS = INSTRUCTION_WORDS | {stem(w) for w in INSTRUCTION_WORDS}


def read_question(
    text: str,
    synonyms: tuple[tuple[str, ...], ...] = METRIC_SYNONYMS,
    statements: dict[str, tuple[str, str]] = STATEMENT_HINTS,
    language: str = "",
) -> Question:
    """The question's kind, periods, metric stems, synonym phrases and statement hints.

    The metric comes from the asking sentence (the one ending in "?", when the question
    adds instructions such as "Answer in USD millions."; a follow-up's carried terms after
    it count too), without instruction words,
    adverbs ("explicitly") and names: "Pepsico" names the company, not the row to read.
    """
    flat = " ".join(text.split())
    asked = _asking_part(flat)
    lowered = f" {flat.lower()} "
    kind = next((k for k, rx in QUESTION_KINDS if re.search(rx, asked.lower())), "other")
    years = sorted(set(years_in(text)))
    hinted = []
    for phrase, (_removed, section_rx) in statements.items():
        if phrase in lowered:
            hinted.append(section_rx)
    english = language in ("", "en")
    asked = DATED_MONTH.sub(" ", asked) if english else asked  # a date's month is no name
    metric_text = _metric_text(_ENTITY_KIND.sub(r"\1", asked) if english else asked, kind,
                               english, statements)  # fmt: skip
    phrases: list[list[str]] = []
    for group in _named_groups(metric_text, synonyms):
        phrases.extend(stems(p, language) for p in group)
    words = _metric_words(metric_text, language)
    # English capitalises names only (German every noun): other languages' names are not told
    named = _NAME_WORD.findall(asked[1:]) if english else []
    names = set(stems(" ".join(named), language)) - set(sum(phrases, []))
    metric = [w for w in words if w not in names] or words
    for part in _named_twice(metric_text):
        phrases.append([w for w in _metric_words(part, language) if w not in names])
    return Question(
        text=text,
        kind=kind,
        years=years,
        compare=bool(COMPARE.search(asked)) or len(years) > 1,
        superlative=next((k for k, rx in SUPERLATIVES.items() if rx.search(asked)), ""),
        metric=list(dict.fromkeys(metric)),
        names=sorted(names & set(words)),
        phrases=[p for p in phrases if p],
        statements=hinted,
        acronyms=_acronyms(asked) if english else {},
        subjects=sorted(names & set(words)),
    )


MIN_OWNER_LETTERS = 3
# A parenthesis in a question names what comes before it again ("demand creation (advertising
# and promotion)", "pay down (repay)"): either wording alone names the metric.
_PARENTHESIS = re.compile(r"\(([^()]*)\)")


def _metric_words(text: str, language: str) -> list[str]:
    """The stems of ``text`` that may name a metric: no years, numbers, instructions or
    adverbs."""
    words = stems(re.sub(r"\b(?:fy|fiscal\s*)?'?(?:19|20)\d\d\b", " ", text), language)
    return [w for w in words if w not in _INSTRUCTION_STEMS and not w.isdigit() and not _adverb(w)]


def _named_twice(metric_text: str) -> list[str]:
    """The question's wording without its parentheses, and each parenthesis's: what a
    question names twice is named by either (none when it has no parenthesis)."""
    inside = _PARENTHESIS.findall(metric_text)
    return [_PARENTHESIS.sub(" ", metric_text), *inside] if inside else []


def with_owner(question: Question, file_names: Iterable[str]) -> Question:
    """The question without the document's own name among its subjects: a name the files
    are named after ("Coca-Cola" of ``COCACOLA_2017_10K.pdf``) is whose figures they all are,
    not a part of it that a row is labelled by ("The Coca-Cola Company" in the stock
    performance table). Files named otherwise leave the subjects as they are."""
    letters = " ".join(re.sub(r"[^a-z]", "", name.lower()) for name in file_names)
    if not letters.strip() or not question.subjects:
        return question
    kept = [
        s for s in question.subjects
        if len(plain := re.sub(r"[^a-z]", "", s)) < MIN_OWNER_LETTERS or plain not in letters
    ]  # fmt: skip
    return replace(question, subjects=kept)


def _asking_part(flat: str) -> str:
    """The sentences that ask (ending in "?"), without instructions such as "Answer in USD
    millions."; the whole text when none ends so."""
    parts = re.split(r"(?<=[?？؟])\s*", flat)
    # A last fragment without an end mark belongs to the ask: a follow-up searched as "And in
    # 2018? total net sales" carries its metric there (navigate/followup.py).
    return (
        " ".join(
            p
            for n, p in enumerate(parts)
            if p.endswith(("?", "？", "؟"))
            or (n == len(parts) - 1 and n > 0 and not p.endswith((".", "!", "。", "！")))
        )
        or flat
    )


def _metric_text(
    asked: str, kind: str, english: bool, statements: dict[str, tuple[str, str]]
) -> str:
    """The asking sentence without what names no metric: another language's asking words
    ("wie hoch", "combien") and the words a statement hint stands for."""
    metric_text = f" {asked.lower()} "
    if not english:
        metric_text = (
            " ".join(re.sub(rx, " ", metric_text) for k, rx in QUESTION_KINDS if k == kind)
            or metric_text
        )
    for _phrase, (removed, _rx) in statements.items():
        metric_text = re.sub(re.escape(removed) + r"\w*", " ", metric_text)
    return metric_text


# A capitalised word inside the asking sentence is a name ("Pepsico's", "American Express").
_NAME_WORD = re.compile(r"(?<=[\s(\"'“])[A-Z][\w&'’.-]*")

# The kind of thing a name is ("Intelligent Cloud segment", "Safety and Graphics business"):
# it says which part of the company is asked about, not which figure.
_ENTITY_KIND = re.compile(
    r"(\b[A-Z][\w&'’.-]*)\s+(?:segment|business|division|unit|brand|region)s?\b(?!['’])"
)
# A run of capitalised words a table may print by its initials ("Amazon Web Services": AWS).
_CAPITALISED_RUN = re.compile(r"[A-Z][\w&'’.-]*(?:\s+[A-Z][\w&'’.-]*)+")
MAX_ACRONYM_WORDS = 5
MIN_ACRONYM_LETTERS = 3  # "NA" or "IC" in a table is as often "not applicable" or a code


def _acronyms(asked: str) -> dict[str, str]:
    """The initials (three or more) of every run of two to five capitalised words (each part
    of a hyphenated word counts: "Frito-Lay North America" is FLNA), with the run's words."""
    out: dict[str, str] = {}
    for match in _CAPITALISED_RUN.finditer(asked):
        words = [_POSSESSIVE.sub("", w).strip(".'’") for w in match.group(0).split()]
        parts = [[p for p in w.split("-") if p[:1].isupper()] for w in words]
        for start in range(len(words)):
            for end in range(start + 1, min(len(words), start + MAX_ACRONYM_WORDS) + 1):
                initials = "".join(p[0] for w in parts[start:end] for p in w)
                if len(initials) >= MIN_ACRONYM_LETTERS:
                    out.setdefault(initials, " ".join(words[start:end]))
    return out


def _adverb(word: str) -> bool:
    """English adverbs ("explicitly", "primarily") qualify a question, never name a metric."""
    return len(word) > 5 and word.endswith("ly")
