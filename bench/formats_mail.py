"""``python -m bench.formats_mail``: e-books and e-mail, read against their authors' structure.

:func:`cases` returns the set (a format label, a file name, its bytes, the sections its
authors made and questions with the section holding each answer and the value the answer
must contain); the runner indexes each file with the offline engine (no model, not stored)
and reports per format: expected sections found, page hit (the first cited reference is on
the gold section's page: a chapter, a message), section hit (it is the gold section),
answer contains the value, and index time per MB. Index time is also measured on a large
e-book and a large mailbox against a PDF of the same text in the same run (the issue's
yardstick: within 2× of a PDF of the same text size). In process, after a warm-up read,
median of ``--runs``. Writes ``bench/results/formats_mail.{json,md}``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from testkit.mail_builders import (
    START,
    Chapter,
    make_docx_bytes,
    make_epub,
    make_mbox,
    make_message,
    make_pdf_bytes,
)
from testkit.msg_builder import make_msg

from .inputs import paragraph
from .record import machine, write_results
from .runner import code_stamp

BENCH = Path(__file__).resolve().parent
OUT = BENCH / "out" / "formats_mail"

MB = 1_000_000
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


@dataclass
class FormatCase:
    label: str  # the format, as the table groups it
    name: str  # the file name (its extension picks the reader)
    data: bytes
    sections: list[str]  # the authors' sections: titles the tree must hold
    questions: list[tuple[str, str, str]] = field(
        default_factory=list
    )  # (question, gold title, value)


def _book_chapters() -> list[Chapter]:
    return [
        Chapter("Chapter 1. Arrival", ["The ship docked at Port Avalon at dawn.",
                                       "Captain Mira Holt counted 42 crates on the quay."]),
        Chapter("Chapter 2. The Market", ["Spices were sold by weight in the covered market."],
                children=[
                    Chapter("The Saffron Stall", ["Saffron cost 9 silver coins per ounce."], anchor="s"),
                    Chapter("The Fish Hall", ["Tuna was the cheapest fish in the hall."], anchor="f"),
                ]),
        Chapter("Chapter 3. Departure", ["The crew left the harbour on the ninth day at noon."]),
    ]  # fmt: skip


def _guide_chapters() -> list[Chapter]:
    return [
        Chapter("Part I. Shorebirds", ["Shorebirds feed where the tide uncovers the mud."], children=[
            Chapter("Oystercatchers", ["An oystercatcher opens a mussel in about 30 seconds."], anchor="o"),
            Chapter("Plovers", ["The ringed plover lays 4 eggs in a scrape on shingle."], anchor="p"),
        ]),
        Chapter("Part II. Seabirds", ["Seabirds spend most of the year far from land."], children=[
            Chapter("Gannets", ["A gannet dives into the sea at up to 86 km/h."], anchor="g"),
            Chapter("Puffins", ["A puffin can carry 10 sand eels in its beak at once."], anchor="u"),
        ]),
    ]  # fmt: skip


ALICE, BOB, CARLA = (
    "Alice Martin <alice@example.com>",
    "Bob Stone <bob@example.com>",
    "Carla Diaz <carla@example.com>",
)
ROOMS = b"Meeting rooms\n\nRoom Atlas: 12 seats.\nRoom Borealis: 6 seats.\nThe wifi password is heron-42-lake.\n"


def _offsite():
    return make_message(
        "Offsite logistics", ALICE, "Team <team@example.com>",
        "Hi all,\n\nThe offsite is on 14 March in Lyon. The bus leaves at 8:15 from the main entrance.",
        attachments=[
            ("rooms.txt", ROOMS, "text/plain"),
            ("budget.docx", make_docx_bytes([("h1", "Travel budget"), ("p", "The travel budget is 12,400 EUR.")]), DOCX),
            ("agenda.pdf", make_pdf_bytes(["Agenda", "The budget review starts at 09:30 in Room Atlas."]), "application/pdf"),
        ],
    )  # fmt: skip


def _thread() -> list:
    first = _offsite()
    reply = make_message(
        "Re: Offsite logistics",
        BOB,
        ALICE,
        f"I will bring the projector cable.\n\nOn Mon, 4 Mar 2024 at 09:00, {ALICE} wrote:\n"
        "> The offsite is on 14 March in Lyon. The bus leaves at 8:15 from the main entrance.\n",
        when=START + timedelta(hours=2),
        reply_to=first,
    )
    answer = make_message(
        "RE: Offsite logistics",
        CARLA,
        BOB,
        "Bob, we ordered 7 vegetarian lunches.\n\n-----Original Message-----\nFrom: Bob Stone\n"
        "Sent: Monday, March 4, 2024 11:00\n\nI will bring the projector cable.\n",
        when=START + timedelta(hours=5),
        reply_to=reply,
    )
    other = make_message(
        "Printer broken",
        "Dan Ng <dan@example.com>",
        "it@example.com",
        "The printer on floor 3 jams on every duplex job.",
        when=START + timedelta(hours=1),
    )
    return [answer, first, other, reply]  # fmt: skip


def cases() -> list[FormatCase]:
    """The e-book and e-mail set: files as their authors structured them, with questions."""
    book = [
        "Chapter 1. Arrival",
        "Chapter 2. The Market",
        "The Saffron Stall",
        "The Fish Hall",
        "Chapter 3. Departure",
    ]
    guide = [
        "Part I. Shorebirds",
        "Oystercatchers",
        "Plovers",
        "Part II. Seabirds",
        "Gannets",
        "Puffins",
    ]
    attachments = [
        "Attachment: rooms.txt",
        "Attachment: budget.docx",
        "Travel budget",
        "Attachment: agenda.pdf",
    ]
    wifi = ("What is the wifi password?", "Attachment: rooms.txt", "heron-42-lake")
    msg_headers = (f"From: {ALICE}\r\nTo: Team <team@example.com>\r\nSubject: Offsite rooms\r\n"
                   "Date: Mon, 04 Mar 2024 09:00:00 +0100\r\n\r\n")  # fmt: skip
    return [
        FormatCase("EPUB 3", "voyage.epub", make_epub("The Voyage", ["Ann Writer"], _book_chapters(), 3), book, [
            ("How much did saffron cost per ounce?", "The Saffron Stall", "9 silver coins"),
            ("How many crates did Captain Mira Holt count?", "Chapter 1. Arrival", "42 crates"),
            ("When did the crew leave the harbour?", "Chapter 3. Departure", "ninth day"),
        ]),
        FormatCase("EPUB 2", "birds.epub", make_epub("Coastal Birds", ["Lee Field"], _guide_chapters(), 2), guide, [
            ("How fast does a gannet dive?", "Gannets", "86 km/h"),
            ("How many eggs does the ringed plover lay?", "Plovers", "4 eggs"),
            ("How many sand eels can a puffin carry?", "Puffins", "10 sand eels"),
        ]),
        FormatCase("e-mail (.eml)", "offsite.eml", _offsite().as_bytes(), ["Offsite logistics", *attachments], [
            wifi,
            ("What is the travel budget?", "Travel budget", "12,400 EUR"),
            ("When does the budget review start?", "Attachment: agenda.pdf", "09:30"),
            ("When does the bus leave?", "Offsite logistics", "8:15"),
        ]),
        FormatCase("mailbox (.mbox)", "team.mbox", make_mbox(_thread()), [
            "Offsite logistics — Alice Martin — 2024-03-04", *attachments,
            "Re: Offsite logistics — Bob Stone — 2024-03-04",
            "RE: Offsite logistics — Carla Diaz — 2024-03-04",
            "Printer broken — Dan Ng — 2024-03-04",
        ], [
            ("How many vegetarian lunches were ordered?", "RE: Offsite logistics — Carla Diaz — 2024-03-04", "7 vegetarian lunches"),
            ("Which printer jams on duplex jobs?", "Printer broken — Dan Ng — 2024-03-04", "floor 3"),
            wifi,
        ]),
        FormatCase("Outlook (.msg)", "rooms.msg",
                   make_msg(msg_headers, "Offsite rooms", "Hello team,\r\nthe room list is attached.", [("rooms.txt", ROOMS)]),
                   ["Offsite rooms", "Attachment: rooms.txt"], [wifi]),
    ]  # fmt: skip


# --- index time at scale, against a PDF of the same text ----------------------------------


def scale_cases(rng: random.Random) -> list[tuple[str, str, bytes, list[str]]]:
    """(label, file name, bytes, its text as pages for the PDF baseline): a 150-chapter
    e-book and a 400-message mailbox."""
    chapters = [
        Chapter(f"Chapter {n}", [paragraph(rng, 6) for _ in range(8)]) for n in range(1, 151)
    ]
    book = make_epub("Long Book", ["Gen Erated"], chapters, 3)
    book_pages = ["\n".join([c.title, *c.paragraphs]) for c in chapters]
    messages, texts = [], []
    for n in range(400):
        body = "\n\n".join(paragraph(rng, 4) for _ in range(3))
        when = datetime(2024, 1, 1, tzinfo=UTC) + timedelta(hours=n)
        messages.append(make_message(f"Topic {n // 4}", ALICE, BOB, body, when=when,
                                     reply_to=messages[-1] if n % 4 else None))  # fmt: skip
        texts.append(body)
    return [
        ("EPUB 3", "long.epub", book, book_pages),
        ("mailbox (.mbox)", "long.mbox", make_mbox(messages), texts),
    ]


def pdf_of(pages: list[str]) -> bytes:
    """The same text as a PDF (fpdf2), one unit per page: the baseline reader's input."""
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_font("helvetica", size=10)
    for text in pages:
        pdf.add_page()
        pdf.multi_cell(0, 5, text.encode("latin-1", "replace").decode("latin-1"))
    return bytes(pdf.output())


def index_seconds(path: Path, runs: int) -> tuple[float, dict[str, Any]]:
    """Median seconds to index ``path`` offline (not stored), after one warm-up read."""
    from treerag_core import index_document, make_summarizer

    summarizer = make_summarizer(None)
    doc = index_document(str(path), summarizer=summarizer, persist=False, verbose=False)
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        index_document(str(path), summarizer=summarizer, persist=False, verbose=False)
        times.append(time.perf_counter() - started)
    return statistics.median(times), doc


def score(case: FormatCase, doc: dict[str, Any]) -> dict[str, Any]:
    """Sections found and, per question, page hit, section hit and the value answered."""
    from treerag_core import ask, make_retriever

    nodes = list(doc["flat_nodes"].values())
    titles = {n["title"] for n in nodes}
    rows = []
    for question, gold, value in case.questions:
        result = ask(question, doc, make_retriever(None))
        cited = next((r for r in result.references if r.get("cited")), None) or {}
        gold_node = next(n for n in nodes if n["title"] == gold)
        page = gold_node.get("page_start")
        start, end = cited.get("page_start"), cited.get("page_end") or cited.get("page_start")
        on_page = page is not None and start is not None and start <= page <= end
        rows.append({
            "question": question, "gold": gold, "cited": cited.get("title"),
            "section_hit": cited.get("title") == gold,
            "page_hit": on_page if page is not None else cited.get("title") == gold,
            "has_value": value in result.content, "answer": result.content[:300],
        })  # fmt: skip
    return {
        "sections_expected": len(case.sections),
        "sections_found": sum(title in titles for title in case.sections),
        "sections_total": len(nodes),
        "questions": rows,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    by_format: dict[str, dict[str, Any]] = defaultdict(lambda: defaultdict(list))
    for case in cases():
        path = OUT / case.name
        path.write_bytes(case.data)
        seconds, doc = index_seconds(path, args.runs)
        found = score(case, doc)
        entry = by_format[case.label]
        entry["files"].append(
            {"name": case.name, "bytes": len(case.data), "index_s": seconds, **found}
        )
    scale = []
    for label, name, data, pages in scale_cases(random.Random(20261201)):
        (OUT / name).write_bytes(data)
        (OUT / f"{name}.pdf").write_bytes(pdf_of(pages))
        ours, doc = index_seconds(OUT / name, args.runs)
        base, pdf_doc = index_seconds(OUT / f"{name}.pdf", args.runs)
        scale.append({"format": label, "name": name, "bytes": len(data), "index_s": ours,
                      "text_chars": doc["source_chars"], "sections": doc["total_sections"],
                      "pdf_bytes": (OUT / f"{name}.pdf").stat().st_size, "pdf_index_s": base,
                      "pdf_text_chars": pdf_doc["source_chars"], "ratio": ours / base})  # fmt: skip
    report = {"generated": datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC"), "code": code_stamp(),
              "machine": machine(), "runs": args.runs, "formats": by_format, "scale": scale}  # fmt: skip
    lines = render(report)
    print("\n".join(lines))
    write_results("formats_mail", report, lines)
    return 0


def render(report: dict[str, Any]) -> list[str]:
    """The Markdown tables: per format, then index time at scale."""
    lines = [
        "# E-books and e-mail: structure, answers, index time", "",
        f"Generated {report['generated']} by `python -m bench.formats_mail` at {report['code']}: "
        f"offline engine, not stored, in process after a warm-up, median of {report['runs']} runs.", "",
        "| format | files | sections found / expected | page hit | section hit | answer has the value | index time per MB |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]  # fmt: skip
    for label, entry in report["formats"].items():
        files = entry["files"]
        questions = [q for f in files for q in f["questions"]]
        size = sum(f["bytes"] for f in files) / MB
        seconds = sum(f["index_s"] for f in files)

        def share(key: str, qs: list = questions) -> str:
            return f"{sum(q[key] for q in qs)}/{len(qs)}"

        lines.append(
            f"| {label} | {len(files)} | {sum(f['sections_found'] for f in files)}/"
            f"{sum(f['sections_expected'] for f in files)} | {share('page_hit')} | "
            f"{share('section_hit')} | {share('has_value')} | {seconds / size:.2f} s "
            f"({seconds * 1000:.0f} ms for {size * 1000:.0f} kB) |"
        )
    lines += ["", "Index time at scale, against a PDF of the same text (same run):", "",
              "| file | size | text | sections | index time | per MB | PDF of the same text | ours / PDF |",
              "|---|---:|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
    for row in report["scale"]:
        lines.append(
            f"| {row['name']} ({row['format']}) | {row['bytes'] / MB:.2f} MB | "
            f"{row['text_chars']:,} chars | {row['sections']:,} | {row['index_s']:.2f} s | "
            f"{row['index_s'] / (row['bytes'] / MB):.2f} s | {row['pdf_index_s']:.2f} s "
            f"({row['pdf_bytes'] / MB:.2f} MB) | **{row['ratio']:.2f}** |"
        )
    misses = [(label, q) for label, e in report["formats"].items() for f in e["files"]
              for q in f["questions"] if not (q["page_hit"] and q["has_value"])]  # fmt: skip
    if misses:
        lines += ["", "Misses:", ""]
        lines += [
            f"- {label}: {q['question']} → cited {q['cited']!r} (gold {q['gold']!r})"
            for label, q in misses
        ]
    return lines + [""]


if __name__ == "__main__":
    raise SystemExit(main())
