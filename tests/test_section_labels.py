"""Labels that tell sections apart: a title the document repeats is shown with its parent
(``Item 7 › Overview``), a unique one alone, and each page range once."""

from __future__ import annotations

from treerag_core.answer.context import reference
from treerag_core.chat import reference_line
from treerag_core.tree import context_label, label_with_pages
from treerag_core.views import hit_label, search_nodes


def _node(nid, title, parent=None, pages=(1, 1), number=None):  # noqa: ANN001, ANN202
    return {"node_id": nid, "title": title, "parent_id": parent, "number": number,
            "page_start": pages[0], "page_end": pages[1], "text": f"{title} text",
            "children": [], "level": 1 if parent is None else 2}  # fmt: skip


def _filing() -> dict:
    flat = {
        "0000": _node("0000", "Item 7. Management's Discussion and Analysis", pages=(30, 50)),
        "0001": _node("0001", "Overview", "0000", (30, 31)),
        "0002": _node("0002", "Liquidity and Capital Resources", "0000", (44, 45)),
        "0003": _node("0003", "Item 8. Financial Statements", pages=(51, 90)),
        "0004": _node("0004", "Overview", "0003", (51, 51)),
        "0005": _node("0005", "Note 4 — Debt (pp. 70–71)", "0003", (70, 71)),
    }
    flat["0000"]["children"] = ["0001", "0002"]
    flat["0003"]["children"] = ["0004", "0005"]
    return {"doc_id": "d", "file_name": "acme_10k.pdf", "flat_nodes": flat}


def test_a_repeated_title_is_shown_with_its_parent_a_unique_one_alone() -> None:
    flat = _filing()["flat_nodes"]
    assert context_label(flat, "0001") == "Item 7 › Overview"
    assert context_label(flat, "0004") == "Item 8 › Overview"
    assert context_label(flat, "0002") == "Liquidity and Capital Resources"


def test_titles_counted_once_label_every_section_as_counted_for_each() -> None:
    """A question's references share one count of the document's titles (issue 42): the
    same labels as each reference counting every title itself."""
    from treerag_core.tree.labels import _norm, own_title, repeated_titles, short_label

    flat = _filing()["flat_nodes"]
    flat["0006"] = _node("0006", "overview", "0005", (71, 71))  # the same title, lower case
    flat["0007"] = _node("0007", "Note 4 — Debt", "0003", (72, 72))  # without its pages
    repeated = repeated_titles(flat)
    assert repeated == {"overview", "note 4 debt"}
    for nid, node in flat.items():
        key = _norm(own_title(node))
        counted = sum(1 for other in flat.values() if _norm(own_title(other)) == key) > 1
        parent = flat.get(str(node.get("parent_id") or ""))
        plain = f"{short_label(parent)} › {own_title(node)}" if counted and parent else None
        assert context_label(flat, nid, repeated) == context_label(flat, nid)
        assert context_label(flat, nid) == (plain or own_title(node))
    document = _filing()
    assert reference(document, "0004", repeated_titles(document["flat_nodes"])) == reference(
        document, "0004"
    )


def test_pages_are_said_once_even_when_a_title_carried_them() -> None:
    flat = _filing()["flat_nodes"]
    assert context_label(flat, "0005") == "Note 4 — Debt"
    assert label_with_pages("Note 4 — Debt (pp. 70–71)", 70, 71) == "Note 4 — Debt, pp. 70–71"
    assert label_with_pages("Cover", None, None) == "Cover"


def test_references_and_search_results_use_the_label() -> None:
    document = _filing()
    ref = {**reference(document, "0001"), "ref": "S1"}
    assert ref["title"] == "Overview" and ref["label"] == "Item 7 › Overview"
    line = reference_line(ref)
    assert line.startswith("[S1] Item 7 › Overview, pp. 30–31")
    assert line.count("pp.") == 1
    flat = document["flat_nodes"]
    shown = [hit_label(flat, nid) for nid, _ in search_nodes(flat, "overview")]
    assert shown == ["Item 7 › Overview, pp. 30–31", "Item 8 › Overview, p. 51"]
    assert hit_label(flat, "0002") == "Liquidity and Capital Resources, pp. 44–45"


def test_siblings_sharing_a_title_are_told_apart_by_the_heading_of_their_group() -> None:
    """3M's segments: "Year 2018 results:" after each segment's heading, all of them
    children of "Performance by Business Segment": the parent tells them apart no more than
    the title does; the segment heading before each does."""
    flat = {"0000": _node("0000", "Performance by Business Segment", pages=(32, 37))}
    titles = ["Industrial Business:", "Year 2018 results:", "Year 2017 results:",
              "Health Care Business:", "Year 2018 results:", "Year 2017 results:"]  # fmt: skip
    for i, title in enumerate(titles, 1):
        flat[f"000{i}"] = _node(f"000{i}", title, "0000", (31 + i, 31 + i))
    flat["0000"]["children"] = [f"000{i}" for i in range(1, 7)]
    assert context_label(flat, "0002") == "Industrial Business: › Year 2018 results:"
    assert context_label(flat, "0006") == "Health Care Business: › Year 2017 results:"
    assert context_label(flat, "0004") == "Health Care Business:"  # its title is its own
    assert context_label(_filing()["flat_nodes"], "0004") == "Item 8 › Overview"  # cousins
