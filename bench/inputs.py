"""Benchmark inputs, generated from a fixed seed so every run (ours and treerag's) reads
byte-identical files.

Why generated: real documents cannot be shipped or fetched here, and a generator makes the
size knobs explicit (2 MB / ~2,000 sections, 300 pages, 200 pages). Files are cached under
``bench/out/inputs`` keyed by their parameters, so a second run skips the slow PDF build.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

SEED = 20261130
OUT = Path(__file__).resolve().parent / "out" / "inputs"

_WORDS = (
    "revenue margin segment liability asset goodwill lease pension tax dividend capital "
    "expenditure inventory receivable payable depreciation amortization impairment acquisition "
    "subsidiary customer supplier contract warranty litigation regulation compliance audit "
    "control risk market currency interest rate hedge derivative debt credit facility bond "
    "equity share repurchase option award employee benefit plan retirement obligation "
    "research development product service network platform cloud device license royalty "
    "energy water carbon emission climate facility plant factory logistics freight channel "
    "retail wholesale consumer brand advertising marketing price volume growth decline quarter "
    "annual fiscal period statement note schedule exhibit policy estimate judgment forecast"
).split()
_NAMES = (
    "Acme Northwind Contoso Globex Initech Umbrella Stark Wayne Tyrell Cyberdyne Soylent Hooli "
    "Vandelay Wonka Oscorp Aperture Massive Dynamic Gringotts Monarch"
).split()


@dataclass(frozen=True)
class Inputs:
    markdown: Path
    pdf_outline: Path
    pdf_plain: Path
    docx: Path


def sentence(rng: random.Random, words: int | None = None) -> str:
    """One plausible-looking sentence with a name and a figure now and then."""
    n = words or rng.randint(8, 22)
    tokens = [rng.choice(_WORDS) for _ in range(n)]
    if rng.random() < 0.4:
        tokens.insert(rng.randrange(len(tokens)), rng.choice(_NAMES))
    if rng.random() < 0.4:
        tokens.insert(
            rng.randrange(len(tokens)), f"${rng.randint(1, 999)}.{rng.randint(0, 9)} million"
        )
    text = " ".join(tokens)
    return text[0].upper() + text[1:] + "."


def paragraph(rng: random.Random, sentences: int) -> str:
    return " ".join(sentence(rng) for _ in range(sentences))


def title(rng: random.Random) -> str:
    return " ".join(w.capitalize() for w in rng.sample(_WORDS, rng.randint(2, 4)))


def outline_plan(rng: random.Random, sections: int) -> list[tuple[int, str]]:
    """(depth, numbered title) for ``sections`` headings: ~20 chapters, ~5 sections each,
    the rest subsections, so the tree has three real levels."""
    plan: list[tuple[int, str]] = []
    chapter = sec = sub = 0
    for i in range(sections):
        if i % 100 == 0:
            chapter, sec, sub = chapter + 1, 0, 0
            plan.append((1, f"{chapter} {title(rng)}"))
        elif i % 20 == 1:
            sec, sub = sec + 1, 0
            plan.append((2, f"{chapter}.{sec} {title(rng)}"))
        else:
            if sec == 0:
                sec = 1
            sub += 1
            plan.append((3, f"{chapter}.{sec}.{sub} {title(rng)}"))
    return plan


def make_markdown(path: Path, sections: int = 2000, target_bytes: int = 2_000_000) -> Path:
    """~``target_bytes`` of Markdown with ``sections`` ATX headings over three levels."""
    rng = random.Random(SEED)
    per_section = target_bytes // sections
    parts: list[str] = []
    for depth, heading in outline_plan(rng, sections):
        body: list[str] = []
        size = 0
        while size + 330 < per_section:
            para = paragraph(rng, rng.randint(2, 5))
            body.append(para)
            size += len(para) + 2
        parts.append(f"{'#' * depth} {heading}\n\n" + "\n\n".join(body) + "\n")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


def make_pdf(path: Path, pages: int = 300, with_outline: bool = True) -> Path:
    """A ``pages``-page PDF: a numbered heading at the top of every page, body text below.

    With ``with_outline`` each heading is also a PDF bookmark; without, the structure lives
    only in the numbered heading lines, as in most real filings.
    """
    from fpdf import FPDF

    rng = random.Random(SEED + (1 if with_outline else 2))
    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(auto=False)
    plan = outline_plan(rng, pages)
    for depth, heading in plan:
        pdf.add_page()
        if with_outline:
            pdf.start_section(heading, level=depth - 1)
        pdf.set_font("helvetica", "B", 16 - 2 * depth)
        pdf.cell(0, 10, heading, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("helvetica", "", 10)
        pdf.multi_cell(0, 5, "\n\n".join(paragraph(rng, 6) for _ in range(5)))
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(path))
    return path


def make_docx(path: Path, pages: int = 200) -> Path:
    """A DOCX of ``pages`` pages (explicit page breaks, ~450 words each) with Heading 1-3."""
    import docx
    from docx.enum.text import WD_BREAK

    rng = random.Random(SEED + 3)
    document = docx.Document()
    for i, (depth, heading) in enumerate(outline_plan(rng, pages)):
        document.add_heading(heading, level=depth)
        for _ in range(4):
            document.add_paragraph(paragraph(rng, 5))
        if i < pages - 1:
            document.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
    path.parent.mkdir(parents=True, exist_ok=True)
    document.save(str(path))
    return path


def ensure_inputs(out: Path = OUT) -> Inputs:
    """Build each input once (same seed → same bytes); reuse the cached files after."""
    files = Inputs(
        markdown=out / f"large_{SEED}.md",
        pdf_outline=out / f"outline_300p_{SEED}.pdf",
        pdf_plain=out / f"plain_300p_{SEED}.pdf",
        docx=out / f"report_200p_{SEED}.docx",
    )
    if not files.markdown.exists():
        make_markdown(files.markdown)
    if not files.pdf_outline.exists():
        make_pdf(files.pdf_outline, with_outline=True)
    if not files.pdf_plain.exists():
        make_pdf(files.pdf_plain, with_outline=False)
    if not files.docx.exists():
        make_docx(files.docx)
    return files


def registry_copies(markdown: Path, count: int, out: Path) -> list[Path]:
    """``count`` copies of the large Markdown under distinct names (treerag keys by name)."""
    out.mkdir(parents=True, exist_ok=True)
    data = markdown.read_bytes()
    copies = []
    for i in range(count):
        copy = out / f"doc_{i:02d}.md"
        if not copy.exists() or copy.stat().st_size != len(data):
            copy.write_bytes(data)
        copies.append(copy)
    return copies
