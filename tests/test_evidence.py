"""Evidence: every cited passage found again on its page (PDF rectangles read back with
PDFium) or in its section text (character offsets), and drawn highlighted on the page."""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from fpdf import FPDF
from PIL import Image

from bench.evidence_score import coverage, read_back, words
from treerag_core import ask, index_document, make_retriever
from treerag_core.errors import EvidenceUnavailableError
from treerag_core.evidence.locate import cited_sentences, quoted_text
from treerag_core.evidence.render import locate_evidence, render_evidence
from treerag_core.library.indexing import index_upload
from treerag_core.store import open_store

MIN_COVERAGE = 0.9  # the bar: the rectangles hold 90% of the excerpt's words
MIN_PRECISION = 0.8  # "and little else"


def check_pdf_references(document: dict, references: list[dict], data: bytes) -> int:
    checked = 0
    for ref in references:
        if ref.get("highlights") is None:
            continue
        want = [w for text in quoted_text(document, ref) for w in words(text)]
        cov, precision = coverage(want, read_back(data, ref["highlights"]))
        assert cov >= MIN_COVERAGE, (ref["ref"], ref["title"], cov)
        assert precision >= MIN_PRECISION, (ref["ref"], ref["title"], precision)
        checked += 1
    return checked


def _pdf(path: Path) -> Path:
    pdf = FPDF()
    topics = [
        ("1 Revenue", "Revenue grew to 4,210 million dollars in fiscal 2023 on strong demand. "),
        (
            "2 Capital Spending",
            "Capital expenditures were 812 million dollars, mostly for plants. ",
        ),
        ("3 People", "The company employed 12,400 people across nine countries at year end. "),
    ]
    for n, (title, sentence) in enumerate(topics, 1):
        pdf.add_page()
        pdf.set_font("helvetica", "B", 16)
        pdf.cell(0, 10, title, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("helvetica", "", 11)
        filler = "".join(
            f"In quarter {q} of year {n} the {title.split()[1].lower()} team reviewed site {q * n}. "
            for q in range(1, 7)
        )
        pdf.multi_cell(0, 6, filler + sentence + filler)
    pdf.output(str(path))
    return path


def test_generated_pdf_passages_are_found_on_their_pages(tmp_path: Path) -> None:
    reg = str(tmp_path / "reg.json")
    path = _pdf(tmp_path / "report.pdf")
    doc = index_document(str(path), registry_path=reg, verbose=False)
    retriever = make_retriever(None, sources=open_store(reg).sources)
    result = ask("How many people did the company employ?", doc, retriever)
    assert "12,400 people" in result.content
    cited = [r for r in result.references if r["cited"]]
    assert cited and all(r["highlights"] for r in cited)
    data = path.read_bytes()
    assert check_pdf_references(doc, cited, data) == len(cited)
    people = next(r for r in cited if r["title"] == "3 People")
    assert people["highlights"][0]["page"] == 3
    # the cited sentence is located too, tighter than the whole excerpt
    assert (
        "The company employed 12,400 people across nine countries at year end."
        in (people["sentences"])
    )
    sentence_words = read_back(data, people["sentence_highlights"])
    assert {"12", "400", "people", "employed"} <= set(sentence_words)
    assert len(sentence_words) < len(read_back(data, people["highlights"])) / 3
    # an uncited reference is located on demand
    other = next((r for r in result.references if not r["cited"]), None)
    if other is not None:
        assert other["highlights"] is None
        found = locate_evidence(doc, other, reg)
        assert found["highlights"] and check_pdf_references(doc, [other], data) == 1


def test_evidence_remembered_is_the_same_and_reads_the_pdf_once(tmp_path: Path) -> None:
    """With the retriever's memory, a reference located before is not located again: the
    second answer neither reads nor opens the PDF, and its highlights are the same (copies:
    changing one answer's leaves the next one's alone)."""
    from treerag_core.navigate.ranking import RankingMemory

    reg = str(tmp_path / "reg.json")
    doc = index_document(str(_pdf(tmp_path / "report.pdf")), registry_path=reg, verbose=False)
    sources, reads = open_store(reg).sources, []

    class Counted:  # the store's sources, each read counted
        def read(self, location: str) -> bytes | None:
            reads.append(location)
            return sources.read(location)

    question = "How many people did the company employ?"
    plain = ask(question, doc, make_retriever(None, sources=sources))
    remembering = make_retriever(None, ranking_memory=RankingMemory(), sources=Counted())
    first = ask(question, doc, remembering)
    assert len(reads) == 1
    first.references[0]["highlights"].clear()
    second = ask(question, doc, remembering)
    assert len(reads) == 1  # nothing read again
    keys = ("highlights", "sentence_highlights", "sentences")
    want = [{k: r.get(k) for k in keys} for r in plain.references]
    assert [{k: r.get(k) for k in keys} for r in second.references] == want
    assert any(r["highlights"] for r in second.references)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "question", "figure"),
    [
        ("AMAZON_2019_10K.pdf", "What were Amazon's total net sales in 2019?", "280,522"),
        ("3M_2018_10K.pdf", "What were the purchases of property, plant and equipment?", "1,577"),
    ],
)
def test_real_filings_every_reference_is_found(
    tmp_path: Path, name: str, question: str, figure: str, shared_data
) -> None:
    path = shared_data.filing(name)
    reg = str(tmp_path / "reg.json")
    doc = index_document(str(path), registry_path=reg, verbose=False)
    result = ask(question, doc, make_retriever(None, sources=open_store(reg).sources))
    for ref in result.references:  # every reference sent, cited or not
        if ref["highlights"] is None:
            locate_evidence(doc, ref, reg)
    data = path.read_bytes()
    assert check_pdf_references(doc, result.references, data) == len(result.references)
    holder = next(r for r in result.references if any(figure in t for t in quoted_text(doc, r)))
    assert figure.replace(",", "") in "".join(read_back(data, holder["highlights"]))


def test_text_sources_give_exact_offsets(tmp_path: Path) -> None:
    import docx

    reg = str(tmp_path / "reg.json")
    md = (
        b"# Revenue\nRevenue grew to $5 million in 2024 after a strong second half.\n\n"
        b"# Staff\nWe employ 40 people in three offices, most of them in Berlin.\n"
    )
    word = docx.Document()
    word.add_heading("Travel policy", 1)
    word.add_paragraph("Economy class is required for flights shorter than six hours.")
    word.add_heading("Meals", 1)
    word.add_paragraph("Meals are refunded up to 40 euros a day with receipts.")
    buffer = io.BytesIO()
    word.save(buffer)
    for name, data, question, sentence in (
        ("notes.md", md, "How many people do we employ?", "We employ 40 people"),
        ("policy.docx", buffer.getvalue(), "How much are meals refunded?", "Meals are refunded"),
    ):
        doc = index_upload(name, data, registry_path=reg)
        result = ask(question, doc, make_retriever(None))
        cited = [r for r in result.references if r["cited"]]
        assert cited
        flat = doc["flat_nodes"]
        for ref in cited:
            for span, text in zip(ref["highlights"], quoted_text(doc, ref), strict=True):
                assert flat[span["node_id"]]["text"][span["start"] : span["end"]] == text
        slices = [
            flat[s["node_id"]]["text"][s["start"] : s["end"]]
            for ref in cited
            for s in ref["sentence_highlights"]
        ]
        assert any(piece.startswith(sentence) for piece in slices), slices
        with pytest.raises(EvidenceUnavailableError, match="text"):
            render_evidence(doc, cited[0], reg)


def test_cited_sentence_of_a_model_answer_is_matched(tmp_path: Path) -> None:
    doc = index_upload(
        "n.md",
        b"# Staff\nWe opened a new office. We employ 40 people in three offices today.\n",
        registry_path=str(tmp_path / "r.json"),
    )
    ref = {"ref": "S1", "doc_id": doc["doc_id"], "node_id": "0000",
           "spans": [{"node_id": "0000", "start": 0, "end": len(doc["flat_nodes"]["0000"]["text"])}]}  # fmt: skip
    answer = "The company has 40 employees working in three offices [S1]. Nothing else [S9]."
    cited_sentences(answer, [ref], {doc["doc_id"]: doc})
    assert ref["sentences"] == ["We employ 40 people in three offices today."]


def test_render_draws_the_highlight_and_caches_it(tmp_path: Path) -> None:
    reg = str(tmp_path / "reg.json")
    path = _pdf(tmp_path / "report.pdf")
    doc = index_upload("report.pdf", path.read_bytes(), registry_path=reg)
    result = ask(
        "What were the capital expenditures?",
        doc,
        make_retriever(None, sources=open_store(reg).sources),
    )
    ref = next(r for r in result.references if r["cited"] and r["title"] == "2 Capital Spending")
    (page,) = render_evidence(doc, ref, reg, zoom=1.0)
    image = Image.open(io.BytesIO(page.png)).convert("RGB")
    assert (page.width, page.height) == image.size and page.page == 2
    # the tinted box sits over the cited sentence as PDFium places it on the page
    textpage = pdfium.PdfDocument(path.read_bytes())[1].get_textpage()
    first = textpage.get_text_range().index("Capital expenditures were")
    left, _bottom, right, top = textpage.get_charbox(first)
    height = image.size[1]  # zoom 1: one pixel a point
    cx, cy = round((left + right) / 2), round(height - top + 2)
    assert any(x0 <= cx <= x1 and y0 <= cy <= y1 for x0, y0, x1, y1 in page.sentence_boxes)
    x0, y0, x1, y1 = next(
        b for b in page.sentence_boxes if b[0] <= cx <= b[2] and b[1] <= cy <= b[3]
    )
    inside = [image.getpixel((x, y)) for y in range(y0 + 1, y1) for x in range(x0 + 1, x1)]
    tinted = [p for p in inside if p[0] > 100 and p[0] - p[2] > 60]  # orange over paper or ink
    assert len(tinted) > 0.9 * len(inside)
    assert image.getpixel((image.size[0] - 5, height - 5)) == (255, 255, 255)  # paper untouched
    assert len(list((tmp_path / "reg.cache" / "evidence").rglob("*.json"))) == 1
    assert render_evidence(doc, ref, reg, zoom=1.0)[0].png == page.png  # from the cache
    # the source is gone: a clear message, not an error page
    Path(doc["file_path"]).unlink()
    with pytest.raises(EvidenceUnavailableError, match="no longer stored"):
        render_evidence(doc, ref, reg, zoom=2.0)
