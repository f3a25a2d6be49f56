"""Indexing's faster paths give exactly what the plain ones gave (issue 42): the language
of a text and of each section, the tokens of a text, a document's section statistics and
the ranking statistics kept at indexing. Each reference below is the code as it was before."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

from treerag_core.library import section_terms
from treerag_core.summarize import phrases
from treerag_core.text import cut_texts, language, tokens
from treerag_core.text.cut_texts import SEGMENT_CHARS, CutTexts
from treerag_core.text.language import Languages
from treerag_core.text.tokens import TextTokens
from treerag_core.tree.passages import (
    LASTING_MIN_PASSAGES,
    RANKING_CACHE,
    digest,
    keep_statistics,
    passage_statistics,
    statistics_key,
)

TEXTS = [
    "The Company's revenue grew 12% in fiscal 2023, and the pension plan is described in Note 9.",
    "Die Gesellschaft hat im Geschäftsjahr die Standard-Papiergröße geändert; l'ordinateur est là.",
    "Le conseil d'administration a approuvé les comptes de l'exercice et la résolution n° 4.",
    "Компания сообщила о росте выручки и о том, что дивиденды будут выплачены в мае.",
    "日本語の文章では、ひらがなと漢字とカタカナが混ざっています。練習用のテキスト。",
    "한국어 문장은 띄어쓰기가 있습니다. 中文没有空格。 ภาษาไทยไม่มีช่องว่าง",
    "naïve café résumé — “quoted” words, ＦＵＬＬ－ＷＩＤＴＨ ５０ and नमस्ते दुनिया",
    "The Company’s net sales — $1.2 billion in fiscal 2023 — rose; it’s the plans’ “assets”.",
    "12345 678 — ... ???",
    "",
]
LANGUAGES = ["", "en", "de", "fr", "ru", "ja", "hi", "ar", "xx"]


def _reference_script(sample: str) -> str:
    counts = {name: len(rx.findall(sample)) for name, rx in language._SCRIPT_RES.items()}
    if counts["kana"] and counts["kana"] >= 0.05 * (counts["kana"] + counts["han"]):
        counts["kana"] += counts.pop("han")
    best = max(counts, key=lambda name: counts[name])
    return best if counts[best] else ""


def _reference_hits(sample: str) -> dict[str, int]:
    candidates = language.CANDIDATES.get(_reference_script(sample)) or ()
    counts = Counter(w.casefold() for w in language._WORDS.findall(sample))
    return {
        lang: sum(n for w, n in counts.items() if w in tokens.stopwords(lang))
        for lang in candidates
    }


def _reference_english_ascii(text: str) -> list[str]:
    """The fast path as it was: one regex match, then stopwords and the plural strip."""
    words = re.findall(r"[a-z0-9]+(?:['’\-]+[a-z0-9]+)*", text.lower())
    return [
        w[:-1] if len(w) > 4 and w[-1] == "s" and w[-2] != "s" else w
        for w in words
        if w not in tokens.STOPWORDS
    ]


def _reference_tokenize(text: str, lang: str = "", other: str = "") -> list[str]:
    if lang in ("", "en") and text.isascii():
        return _reference_english_ascii(text)
    rules = tokens._rules(lang)
    script = tokens.SCRIPT_OF_LANGUAGE.get(other, "latin") if other else ""
    alternate = (
        tokens._rules(other)
        if script and script != tokens.SCRIPT_OF_LANGUAGE.get(lang, "latin")
        else None
    )
    lowered = unicodedata.normalize("NFKC", text).casefold()
    matcher = tokens._WORD_MARKED if tokens.COMBINING_MARKS.search(lowered) else tokens._WORD_ANY
    out: list[str] = []
    for word in matcher.findall(lowered):
        stop, stem = alternate if alternate and tokens._script(word) == script else rules
        for one in tokens._word_forms(word) if lang not in ("", "en") else (word,):
            tokens._add_any(one, stop, stem, out)
    return out


def test_the_script_and_the_stopword_counts_are_the_plain_ones() -> None:
    for text in TEXTS:
        assert language._script(text) == _reference_script(text)
        found, hits = language._detect(text)
        if hits:
            assert hits == _reference_hits(text)


def test_the_stopword_holders_are_the_plain_ones() -> None:
    """Built a language at a time, each stopword's languages are those holding it, in the
    candidates' order, as asking every list for every word gave."""
    for script, candidates in language.CANDIDATES.items():
        every = frozenset().union(*(tokens.stopwords(lang) for lang in candidates))
        plain = {w: tuple(c for c in candidates if w in tokens.stopwords(c)) for w in every}
        assert language._holders(script) == plain


def test_tokens_are_the_plain_ones_in_every_language() -> None:
    for text in TEXTS:
        for lang in LANGUAGES:
            for other in ("", "en", "ru"):
                assert tokens.tokenize(text, lang, other) == _reference_tokenize(text, lang, other)


def test_section_postings_are_the_plain_ones() -> None:
    fields = (TEXTS[0], "pension plan revenue", TEXTS[0] + " " + TEXTS[1])
    postings: dict[str, list[int]] = {}
    lengths = section_terms._add(postings, 3, fields, "en")
    counts = [Counter(tokens.tokenize(text, "en")) for text in fields]
    assert lengths == [sum(c.values()) for c in counts]
    assert postings == {
        term: [3, *(c.get(term, 0) for c in counts)] for term in set().union(*counts)
    }


def test_indexing_keeps_the_statistics_under_the_first_questions_key() -> None:
    flat = {
        f"n{i}": {"title": f"Procedure {i}", "text": f"Check valve {i} and log the pressure."}
        for i in range(LASTING_MIN_PASSAGES + 2)
    }
    languages = Languages("en")
    kept: dict = {}

    class Cache(dict):
        def put(self, key: str, value: dict) -> None:
            kept[key] = value

    assert keep_statistics(Cache(), flat, languages)
    (key,) = kept
    assert key == digest(statistics_key(flat, list(flat), languages))
    built = passage_statistics(flat, list(flat), languages)
    assert kept[key] == built.stored()
    assert not keep_statistics(Cache(), dict(list(flat.items())[:3]), languages)  # too small
    assert RANKING_CACHE == "ranking"


def _reference_section_languages(nodes: dict, main: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for nid, node in nodes.items():
        text = str(node.get("text") or "")
        if len(text) < language.SECTION_SAMPLE_MIN_CHARS:
            continue
        sample = f"{node.get('title') or ''}\n{text[: language.SECTION_SAMPLE_CHARS]}"
        hits = _reference_hits(sample)
        best = max(hits, key=lambda lang: hits[lang]) if hits else ""
        words = language._WORDS.findall(sample)
        if best and (
            hits[best] < language.MIN_STOPWORD_HITS
            or hits[best] < language.MIN_STOPWORD_SHARE * len(words)
        ):
            best = ""
        if not hits:
            best = language._detect(sample)[0]  # a script that names its language
        if not best or best == main:
            continue
        if hits and (
            hits[best] < language.OTHER_LANGUAGE_MARGIN * hits.get(main, 0)
            or language._distinct_stopwords(sample, best) < language.MIN_SECTION_STOPWORDS
        ):
            continue
        found[nid] = best
    return found


def test_sections_in_other_languages_are_the_plain_ones() -> None:
    mixes = [(a, b) for a in TEXTS for b in TEXTS] + [(a, a) for a in TEXTS]
    nodes = {
        f"n{i}": {"title": f"Part {i}", "text": (a + " ") * (i % 4 + 1) + (b + " ") * 3}
        for i, (a, b) in enumerate(mixes)
    }
    for main in ("en", "de", "fr", "ru", "ja", ""):
        assert language.section_languages(nodes, main) == _reference_section_languages(nodes, main)


def test_texts_cut_once_give_the_statistics_cut_twice() -> None:
    texts = [*TEXTS, "Revenue and margins by segment. " * 90]  # the last: several passages
    flat = {
        f"n{i}": {"title": f"Part {i}", "text": text, "summary": "net sales", "tags": ["x"]}
        for i, text in enumerate(texts)
    }
    for languages in (Languages("en"), Languages("", {"n1": "de"}), Languages("fr")):
        shared = TextTokens()
        ids = list(flat)
        assert (
            passage_statistics(flat, ids, languages, shared).stored()
            == passage_statistics(flat, ids, languages).stored()
        )
        card = {"language": languages.main, "name": "Acme", "kind": "annual report"}
        assert section_terms.section_entry(flat, card, shared) == section_terms.section_entry(
            flat, card
        )


def _reference_passages(node: dict, lang: str, other: str) -> list[list[str]]:
    """A section's passages as they were cut before heads were cut once: head and window
    together, by the plain tokenizer."""
    from treerag_core.text.bm25 import PASSAGE_CHARS
    from treerag_core.tree.labels import heading_label

    tags = " ".join(map(str, node.get("tags") or []))
    head = f"{heading_label(node)} " * 2 + f"{node.get('summary') or ''} {tags} "
    text = str(node.get("text") or "")
    if len(text) <= PASSAGE_CHARS:
        return [_reference_tokenize(head + text, lang, other)]
    step = PASSAGE_CHARS // 2
    return [
        _reference_tokenize(head + text[i : i + PASSAGE_CHARS], lang, other)
        for i in range(0, len(text) - step, step)
    ]


def test_passages_headed_by_any_title_are_the_plain_ones() -> None:
    """A head in any script ("…", "—", accents, marks) before ASCII text and before text
    that is not: the head cut once gives the passages head and text cut together gave."""
    from treerag_core.tree.passages import node_passages

    rows = "".join(
        f"Order ORD-{i:05d}: Customer {i % 97}, Amount {i * 37}.50.\n" for i in range(90)
    )
    heads = ["orders (continued): Order ORD-00167: Customer…", "Note 9 — Pensions", "Café résumé",
             "नमस्ते दुनिया", "日本語の見出し", "Plain title"]  # fmt: skip
    bodies = [rows, rows[:1500], rows + TEXTS[6], TEXTS[7] * 40, (TEXTS[2] + " ") * 30]
    for title in heads:
        for body in bodies:
            node = {"title": title, "text": body, "summary": "Orders… by customer", "tags": ["ça"]}
            for lang, other in (("", ""), ("en", ""), ("de", ""), ("en", "ru"), ("fr", "en")):
                expected = _reference_passages(node, lang, other)
                assert node_passages(node, language=lang, other=other) == expected
                assert node_passages(node, language=lang, other=other, tokens=TextTokens()) == (
                    expected
                )
                assert node_passages(node, language=lang, other=other, tokens=CutTexts()) == (
                    expected
                )


# Texts of every kind a segment cut could meet: marks composed away ("e" + U+0301), marks a
# normalisation makes ("¨", "İ"), marks of Devanagari, words cut by a window's edge.
MARKED = ["Cafe\u0301 re\u0301sume\u0301 ", "na\u00a8ive İstanbul ", "नमस्ते दुनिया "]


def _long_texts() -> list[str]:
    plain = [t for t in TEXTS if t and cut_texts.unmarked(t)]  # Latin, Cyrillic, kana, ...
    texts = [" ".join(plain[i % len(plain)] for i in range(n, n + 40)) for n in range(4)]
    texts.append("Net sales rose 12% in the Company’s fiscal 2023 — “record”.\n" * 60)
    texts.append("x" * 700 + " " + "word-joined " * 200)  # a first segment without a space
    texts += [texts[0][:900] + mark + texts[1][:900] for mark in MARKED]
    return texts


def test_texts_cut_in_segments_are_the_plain_ones() -> None:
    """The whole text and any stretch of it, from segments, as the text cut whole."""
    texts = _long_texts()
    assert sum(CutTexts()._bounds_of(text) is not None for text in texts) == len(texts) - 3
    for text in texts:
        for lang, other in (
            ("", ""),
            ("en", ""),
            ("de", ""),
            ("fr", "en"),
            ("en", "ru"),
            ("ja", ""),
        ):
            cut = CutTexts()
            assert cut(text, lang) == tokens.tokenize(text, lang)
            starts = [0, 1, SEGMENT_CHARS - 1, 777, 1000, len(text) // 2]
            for start in starts:
                for size in (1, 13, SEGMENT_CHARS, 2000, len(text)):
                    got = cut.span(text, start, start + size, lang, other)
                    assert got == tokens.tokenize(text[start : start + size], lang, other)


def _reference_candidates(text: str) -> tuple[Counter, dict[str, Counter]]:
    """A text's phrases as they were found before runs were found over marks: a Python
    step a token."""

    def runs(line: str):  # noqa: ANN202 - a generator of the reference only
        run: list[str] = []
        starts = sentence_start = True
        for token in phrases._TOKEN.findall(line):
            if phrases._boundary(token):
                if run:
                    yield run, starts
                run, sentence_start = [], token in {".", "!", "?", ":", ";"}
                continue
            if not run:
                starts = sentence_start
            run.append(token)
            sentence_start = False
        if run:
            yield run, starts

    counts: Counter = Counter()
    forms: dict[str, Counter] = {}
    for line in text.split("\n"):
        if phrases._is_caps_line(line):
            continue
        for run, starts in runs(line):
            words = run
            while words and words[-1].lower().endswith("ed") and len(words) > 1:
                words = words[:-1]
            if phrases.MIN_WORDS <= len(words) <= phrases.MAX_WORDS:
                phrase, weight = " ".join(words), 1.0
            elif len(words) == 1 and not starts and phrases._is_name(words[0]):
                phrase, weight = words[0], phrases.NAME_WEIGHT
            else:
                continue
            counts[phrase.lower()] += weight
            forms.setdefault(phrase.lower(), Counter())[phrase] += 1
    return counts, forms


def test_phrases_are_the_plain_ones() -> None:
    texts = [*TEXTS, *_long_texts(), "Revenue increased. Vietnam Operations grew; Walmart Stores "
             "expanded\nShare Repurchase Program approved by the Board\nNET SALES BY REGION\n"
             "Total: Regional Sales Volumes Increased Sharply 3,250 units. Acme Brands"]  # fmt: skip
    for text in texts:
        assert phrases.candidates(text) == _reference_candidates(text)
        counts, forms = phrases.candidates(text)
        reference = _reference_candidates(text)[1]
        assert [list(forms[k]) for k in forms] == [list(reference[k]) for k in forms]  # order


def test_english_ascii_tokens_are_the_word_pattern_s() -> None:
    """The translate-and-split fast path finds the words the pattern found, in every mix of
    letters, digits, apostrophes, hyphens and other ASCII characters (a fixed seed)."""
    import random

    fixed = [
        "The Company's co-op -- e-mail 'quoted' don't -x- x-' '- ''' --- a--b 10-K Q3's",
        "Sales\tRISES\nthe_leases_ plans' 12,345.67 (in millions) assets; it's ABS-'s",
        "",
        "'",
        "-",
    ]
    rng = random.Random(42)
    alphabet = "aAsSeE09'- _.,\t\n$%()xyzThE"
    made = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60))) for _ in range(3000)]
    for text in fixed + made:
        for lang in ("", "en"):
            assert tokens.tokenize(text, lang) == _reference_english_ascii(text), text


def test_answer_vocabulary_stems_are_the_word_pattern_s() -> None:
    """The offline answer's vocabulary cuts ASCII text into the words ``WORD`` found."""
    import random

    from treerag_core.answer.offline.candidates import Vocabulary
    from treerag_core.answer.offline.question import stem

    def reference(text: str) -> list[str]:
        words = (w.strip("'’-") for w in tokens.WORD.findall(text.lower()))
        return [stem(w) for w in words if w and w not in tokens.STOPWORDS]

    rng = random.Random(11)
    alphabet = "aAsSeE09'- _.,\t\n$%()xyzThEing"
    texts = ["Net sales rose 12% in fiscal 2023 -- 'record' co-op's e-mail -x-"] + [
        "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60))) for _ in range(2000)
    ]
    vocabulary = Vocabulary([])
    for text in texts:
        assert vocabulary.stems(text) == reference(text), text
