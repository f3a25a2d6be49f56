"""``python -m bench.languages``: one manual in ten languages, the same questions in each,
answered by the offline engine: is every language found as well as English?

The manual is the Debian FAQ, which Debian publishes translated (``debian-faq`` and
``debian-faq-{de,fr,it,ja,ko,nl,pt,ru,zh-cn}``; installed by ``tests/run.sh``, else fetched
here with ``apt-get download`` into ``bench/out/languages``). Each language is indexed
three ways where it exists: the plain-text edition (numbered headings: structure from
the text rules), the PDF with its bookmarks, and the same PDF with its bookmarks removed
(the Chinese, Japanese and Korean PDFs are one-page stubs: text only). The questions
(``bench/questions/languages.jsonl``: 24, each written in the ten languages, not copied
from the headings) name the FAQ section that answers them by its number, which is the
same in every translation; a question is answered from the right section when one of the
answer's references is that section or one inside it. Writes
``bench/results/languages.{json,md}``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import shutil
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

from .record import write_results

BENCH = Path(__file__).resolve().parent
OUT = BENCH / "out" / "languages"
RESULTS = BENCH / "results"
QUESTIONS = BENCH / "questions" / "languages.jsonl"
INSTALLED = Path("/usr/share/doc/debian/FAQ")
LANGUAGES = ("en", "de", "fr", "it", "nl", "pt", "ru", "ja", "zh", "ko")
PACKAGES = ["debian-faq"] + [f"debian-faq-{c}" for c in LANGUAGES[1:] if c != "zh"] + [
    "debian-faq-zh-cn"]  # fmt: skip
STUB_PDF_BYTES = 50_000  # the CJK "PDFs" are a page saying the PDF could not be built
_NUMBER = re.compile(r"^\s*(?:[^\W\d_]+\s+)?\d+(?:\.\d+)*\.?(?:\s+|$)")
_HEADING = re.compile(r"^(\d+(?:\.\d+)+)\.\s+(\S.*)$")
KEY_CHARS = 30  # a heading's first letters: a wrapped heading's first line is enough
MIN_KEY_CHARS = 12  # a shorter (cut) heading must not match every heading it begins


def faq_folder(log: Any = print) -> Path:
    """Where the translated FAQs are: installed, or unpacked here once."""
    codes = ["zh-cn" if lang == "zh" else lang for lang in LANGUAGES]
    if all((INSTALLED / f"debian-faq.{code}.txt.gz").exists() for code in codes):
        return INSTALLED  # tests/run.sh installs only the few the tests read
    unpacked = OUT / "root" / "usr/share/doc/debian/FAQ"
    if not all((unpacked / f"debian-faq.{code}.txt.gz").exists() for code in codes):
        log("fetching the Debian FAQ packages (apt-get download)")
        debs = OUT / "debs"
        debs.mkdir(parents=True, exist_ok=True)
        subprocess.run(["apt-get", "download", *PACKAGES], cwd=debs, check=True,
                       capture_output=True)  # fmt: skip
        for deb in debs.glob("*.deb"):
            subprocess.run(["dpkg", "-x", str(deb), str(OUT / "root")], check=True)
    return unpacked


def editions(folder: Path) -> list[tuple[str, str, Path]]:
    """``(language, edition, file)`` for every edition there is, unpacked under OUT."""
    from pypdf import PdfReader, PdfWriter

    files = OUT / "files"
    files.mkdir(parents=True, exist_ok=True)
    out = []
    for lang in LANGUAGES:
        code = "zh-cn" if lang == "zh" else lang
        txt = files / f"debian-faq.{lang}.txt"
        with gzip.open(folder / f"debian-faq.{code}.txt.gz") as src, txt.open("wb") as dst:
            shutil.copyfileobj(src, dst)
        out.append((lang, "text", txt))
        packed = folder / f"debian-faq.{code}.pdf.gz"
        pdf = files / f"debian-faq.{lang}.pdf"
        with gzip.open(packed) as src, pdf.open("wb") as dst:
            shutil.copyfileobj(src, dst)
        if pdf.stat().st_size < STUB_PDF_BYTES:
            continue
        out.append((lang, "PDF, bookmarks", pdf))
        bare = files / f"debian-faq.{lang}.nobookmarks.pdf"
        writer = PdfWriter(clone_from=PdfReader(pdf))
        writer._root_object.pop("/Outlines", None)  # noqa: SLF001 - pypdf's way to drop them
        with bare.open("wb") as dst:
            writer.write(dst)
        out.append((lang, "PDF, no bookmarks", bare))
    return out


def gold_titles(text_edition: Path) -> dict[str, str]:
    """FAQ number → its question as this translation prints it: the body's headings
    (``6.2.2.\u00a0Woher stammen diese Codenamen?`` at the start of a line; the contents
    at the front are indented)."""
    titles: dict[str, str] = {}
    for line in text_edition.read_text(encoding="utf-8").splitlines():
        m = _HEADING.match(line)
        if m:
            titles[m.group(1)] = m.group(2)  # the body's comes after the contents'
    return titles


def _key(title: str) -> str:
    """A heading as compared: no number, no "Chapter", no spaces or punctuation, folded."""
    title = _NUMBER.sub("", title)
    return "".join(ch for ch in title.casefold() if ch.isalnum())[:KEY_CHARS]


def right_section(references: list[dict[str, Any]], gold: str) -> bool:
    """One of the references is the gold section, or inside it (its path passes it)."""
    want = _key(gold)
    return bool(want) and any(
        _key(part) == want
        or (len(_key(part)) >= MIN_KEY_CHARS and want.startswith(_key(part)))
        or (len(want) >= MIN_KEY_CHARS and _key(part).startswith(want))
        for r in references
        for part in re.split(r"\s+[>›]\s+", str(r.get("path") or r.get("title") or ""))
    )


def run_edition(
    document: dict[str, Any], lang: str, questions: list[dict], golds: dict[str, str],
    translated: set[str],
) -> dict[str, Any]:  # fmt: skip
    """``translated``: the gold sections whose text this translation has in its language
    (an untranslated section's English text cannot match a question's words offline)."""
    from treerag_core import ask, make_retriever

    retriever = make_retriever()
    hits, seconds, rows = 0, [], []
    for item in questions:
        started = time.perf_counter()
        result = ask(item["questions"][lang], document, retriever, return_raw=False)
        seconds.append(time.perf_counter() - started)
        hit = right_section(result.get("references") or [], golds[item["gold"]])
        hits += hit
        rows.append({"id": item["id"], "hit": hit, "translated": item["gold"] in translated})
    asked = [r for r in rows if r["translated"]]
    return {"right_section": round(hits / len(questions), 4), "questions": len(questions),
            "translated_golds": len(asked),
            "right_section_translated": round(sum(r["hit"] for r in asked) / len(asked), 4)
            if asked else None,
            "median_s": round(statistics.median(seconds), 3), "per_question": rows}  # fmt: skip


def translated_golds(text_edition: Path, lang: str) -> set[str]:
    """The FAQ numbers whose body this text edition has in its own language: the text
    between the body's heading and the next one, told by the engine's own detection."""
    from treerag_core.text.language import detect_language

    bodies: dict[str, list[str]] = {}
    current = None
    for line in text_edition.read_text(encoding="utf-8").splitlines():
        m = _HEADING.match(line)
        if m:
            current = m.group(1)
            bodies[current] = []  # the body's heading comes after the contents' line
        elif current is not None:
            bodies[current].append(line)
    return {number for number, lines in bodies.items()
            if detect_language("\n".join(lines)) == lang}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    from treerag_core import index_document, make_summarizer

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--label", default="", help="a name for this run in the results")
    parser.add_argument("--out", default="languages", help="results file stem")
    parser.add_argument("--languages", nargs="*", help="only these (codes), e.g. en ko")
    args = parser.parse_args(argv)
    questions = [json.loads(line) for line in QUESTIONS.open() if line.strip()]
    report: dict[str, Any] = {"label": args.label, "questions": len(questions), "editions": []}
    found = editions(faq_folder())
    golds = {lang: gold_titles(path) for lang, edition, path in found if edition == "text"}
    translated = {
        lang: translated_golds(path, lang) for lang, edition, path in found if edition == "text"}  # fmt: skip
    for lang, edition, path in found:
        if args.languages and lang not in args.languages:
            continue
        started = time.perf_counter()
        document = index_document(str(path), make_summarizer(), persist=False, verbose=False)
        index_s = time.perf_counter() - started
        row = run_edition(document, lang, questions, golds[lang], translated[lang])
        row.update(language=lang, edition=edition, detected=document.get("language", ""),
                   sections=document["total_sections"], structure=document["structure_source"],
                   index_s=round(index_s, 2))  # fmt: skip
        report["editions"].append(row)
        print(f"{lang:3} {edition:18} {row['right_section']:6.1%} detected={row['detected']!r} "
              f"sections={row['sections']} ({row['structure']})", flush=True)  # fmt: skip
    _write(report, args.out)
    return 0


def _write(report: dict[str, Any], stem: str) -> None:
    kinds = ("text", "PDF, bookmarks", "PDF, no bookmarks")
    cell = {(r["language"], r["edition"]): r for r in report["editions"]}
    english = {k: cell.get(("en", k), {}).get("right_section") for k in kinds}
    lines = [f"# One manual in ten languages {report['label']}".rstrip(), "",
             f"`python -m bench.languages`: the Debian FAQ, {report['questions']} questions "
             "written in each language, the offline engine; answered from the right section "
             "(and, in brackets, points against English on the same edition: -8 is 8 below).",
             "",
             "The text editions leave some sections untranslated (their body is the English "
             "original): 'translated' counts the questions whose gold section this edition "
             "has in its language, and the text edition's score on those alone.", "",
             "| language | detected | " + " | ".join(kinds)
             + " | translated | text, translated | sections (text) |",
             "|---|---|" + "---:|" * len(kinds) + "---:|---:|---:|"]  # fmt: skip
    from treerag_core.text.language import language_name

    for lang in LANGUAGES:
        cells = []
        for kind in kinds:
            row = cell.get((lang, kind))
            if row is None:
                cells.append("–")
                continue
            gap = (row["right_section"] - english[kind]) * 100 if english[kind] is not None else 0
            cells.append(f"{row['right_section']:.1%}" + (f" ({gap:+.0f})" if lang != "en" else ""))
        text = cell.get((lang, "text"), {})
        share = text.get("right_section_translated")
        lines.append(f"| {language_name(lang)} | {text.get('detected') or '–'} | "
                     + " | ".join(cells)
                     + f" | {text.get('translated_golds', '–')}/{report['questions']}"
                     + f" | {'–' if share is None else f'{share:.1%}'}"
                     + f" | {text.get('sections', '')} |")  # fmt: skip
    write_results(stem, report, lines)


def rewrite(stem: str) -> None:
    """The table again from a run's JSON (``python -c 'import bench.languages as b;
    b.rewrite("languages")'``)."""
    _write(json.loads((RESULTS / f"{stem}.json").read_text()), stem)


if __name__ == "__main__":
    raise SystemExit(main())
