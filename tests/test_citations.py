"""Citation markers found and linked (``treerag_core.views.citations``), the links' targets
(``ui.cite_links``), and evidence tiles of one shape (``crop_to_evidence``)."""

from __future__ import annotations

import io

from PIL import Image

from treerag_core.evidence import EvidencePage, crop_to_evidence
from treerag_core.views.citations import evidence_caption, find_citations, link_citations
from ui.cite_links import Cited, href, parse
from ui.text import cited_markdown

ANSWER = "Leave is 28 days [S1, p. 2]. See [S2] and [S1; S3, pp. 4–5], [S4, slide 3]; $5 [x]."


def test_every_marker_is_found_with_its_page() -> None:
    found = [(c.ref, c.page, c.text) for c in find_citations(ANSWER)]
    assert found == [
        ("S1", 2, "S1, p. 2"),
        ("S2", None, "S2"),
        ("S1", None, "S1"),
        ("S3", 4, "S3, pp. 4–5"),
        ("S4", 3, "S4, slide 3"),
    ]


def test_links_replace_markers_only() -> None:
    linked = link_citations(ANSWER, lambda c: f"<{c.ref}>", str.upper)
    assert linked.startswith("LEAVE IS 28 DAYS [<S1>]. SEE [<S2>] AND [<S1>; <S3>], [<S4>]")
    assert linked.endswith("$5 [X].")


def test_the_chat_shows_markers_as_links_to_the_pane() -> None:
    shown = cited_markdown(ANSWER, 3)
    assert "[S1, p. 2](#cite-3-S1-2)" in shown and "[S2](#cite-3-S2-0)" in shown
    assert "\\$5" in shown  # dollars stay literal (no LaTeX)
    assert cited_markdown(ANSWER, None) == ANSWER.replace("$", "\\$")  # while streaming
    assert parse(href(3, "S1", 2)[1:]) == Cited(3, "S1", 2)
    assert parse("cite-3-S2-0") == Cited(3, "S2", None)
    assert parse("elsewhere") is None and parse("cite-x-S1-2") is None


def test_caption_names_reference_path_and_page() -> None:
    ref = {"ref": "S3", "path": "Item 7 > Liquidity", "page_unit": "page"}
    assert evidence_caption(ref, 45) == "S3 · Item 7 › Liquidity, p. 45"
    assert evidence_caption({"ref": "S1", "title": "Notes"}, None) == "S1 · Notes"


def _page(width: int, height: int, box: list[int]) -> EvidencePage:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), "white").save(buffer, format="PNG")
    return EvidencePage(page=1, png=buffer.getvalue(), width=width, height=height,
                        boxes=[box], sentence_boxes=[])  # fmt: skip


def test_tiles_share_one_shape_whatever_the_passage() -> None:
    shapes = set()
    for box in ([100, 100, 700, 120], [50, 400, 120, 700], [0, 1000, 800, 1100]):
        tile = crop_to_evidence(_page(800, 1100, box), aspect=16 / 9)
        shapes.add(round(tile.width / tile.height, 2))
        assert tile.width <= 800 and tile.height <= 1100
    assert shapes == {round(16 / 9, 2)}
    band = crop_to_evidence(_page(800, 1100, [300, 500, 400, 520]), full_width=True)
    assert band.width == 800 and band.height < 1100
