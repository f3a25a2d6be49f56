"""``python -m bench.ocr_languages``: a scan read in the language treerag chooses for it,
against the other choices, word for word against the pages' own text.

Ten pages of the Debian FAQ in German and in English (``debian-faq-de``, ``debian-faq``:
installed by ``tests/run.sh``) are rendered at 200 dpi into image-only PDFs and read as any
upload is, nothing cached: with ``TREERAG_OCR_LANGUAGE=auto`` (the default: the language
is found, then every page read in it) and with the setting forced to ``eng``, ``deu`` and
``deu+eng``, in the same run. For each: the Tesseract languages used, word recall and
precision against the born-digital pages' text (Unicode words: "größe" is one word), and
seconds (median of runs). Needs ``tesseract-ocr-deu``. Writes
``bench/results/ocr_languages.{json,md}``.
"""

from __future__ import annotations

import argparse
import gzip
import io
import re
import statistics
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

from bench.ocr import scan_copy

from .record import write_results

BENCH = Path(__file__).resolve().parent
OUT = BENCH / "out" / "ocr_languages"
RESULTS = BENCH / "results"
FAQ = Path("/usr/share/doc/debian/FAQ")
EDITIONS = {"German": "debian-faq.de.pdf.gz", "English": "debian-faq.en.pdf.gz"}
SETTINGS = {"German": ("auto", "eng", "deu", "deu+eng"), "English": ("auto", "eng")}
# Pages past the title and contents, spread over the book.
PAGES = [5 + 7 * k for k in range(10)]
WORD = re.compile(r"\w+")


def log(message: str) -> None:
    print(f"[ocr_languages {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def words(text: str) -> Counter[str]:
    return Counter(w.casefold() for w in WORD.findall(text))


def sample(edition: str) -> tuple[Path, Path]:
    """(the born-digital pages, their scan): ``PAGES`` of the edition's PDF."""
    from pypdf import PdfReader, PdfWriter

    OUT.mkdir(parents=True, exist_ok=True)
    original = OUT / f"{edition}.pdf"
    if not original.exists():
        reader = PdfReader(io.BytesIO(gzip.decompress((FAQ / EDITIONS[edition]).read_bytes())))
        writer = PdfWriter()
        for number in PAGES:
            writer.add_page(reader.pages[number - 1])
        with original.open("wb") as fh:
            writer.write(fh)
    return original, scan_copy(original, OUT / f"scan-{edition}.pdf")


def read(scan: Path, setting: str) -> tuple[str, str, float]:
    """(text, languages used, seconds) of the scan read with ``setting``, nothing cached."""
    from treerag_core.read.source import read_source
    from treerag_core.settings import load

    limits = replace(load().limits(), ocr_language=setting)
    started = time.perf_counter()
    source = read_source(str(scan), limits)
    return source.text, source.ocr_language, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    from treerag_core.read.source import read_source

    parser = argparse.ArgumentParser(prog="python -m bench.ocr_languages", description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="timing runs (median)")
    args = parser.parse_args(argv)
    rows = []
    for edition, settings in SETTINGS.items():
        original, scan = sample(edition)
        truth = words(read_source(str(original)).text)
        for setting in settings:
            runs = [read(scan, setting) for _ in range(args.runs)]
            text, used, _ = runs[0]
            got = words(text)
            shared = sum((truth & got).values())
            rows.append({
                "edition": edition, "setting": setting, "used": used, "pages": len(PAGES),
                "word_recall": shared / max(1, sum(truth.values())),
                "word_precision": shared / max(1, sum(got.values())),
                "seconds": statistics.median(r[2] for r in runs),
            })  # fmt: skip
            log(f"{edition} {setting}: {rows[-1]}")
    report = {"generated_at": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "runs": args.runs,
              "pages": PAGES, "rows": rows}  # fmt: skip
    md = markdown(report)
    write_results("ocr_languages", report, md)
    print(md)
    return 0


def markdown(report: dict[str, Any]) -> str:
    lines = [
        "# Scans read in their own language",
        "",
        f"Generated {report['generated_at']} by `python -m bench.ocr_languages`: "
        f"{len(report['pages'])} pages of the Debian FAQ rendered at 200 dpi into image-only "
        "PDFs, read with nothing cached; seconds are the median of "
        f"{report['runs']} runs, against the forced English reading of the same scan.",
        "",
        "| edition | TREERAG_OCR_LANGUAGE | read with | word recall | word precision | "
        "seconds | vs eng |",
        "|---|---|---|---:|---:|---:|---:|",
    ]
    english = {r["edition"]: r["seconds"] for r in report["rows"] if r["setting"] == "eng"}
    for r in report["rows"]:
        ratio = r["seconds"] / english[r["edition"]] if english.get(r["edition"]) else 0.0
        lines.append(
            f"| {r['edition']} | {r['setting']} | {r['used']} | {100 * r['word_recall']:.1f}% | "
            f"{100 * r['word_precision']:.1f}% | {r['seconds']:.1f} | {ratio:.2f}× |"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
