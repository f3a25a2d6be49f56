"""Tree browser (AppTest, agraph patched to simulate clicks) and the tree_view helpers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import streamlit_agraph
from conftest import texts

from treerag_core import build_hierarchy, flatten_tree, index_document, parse_sections
from treerag_core.summarize.summarizers import make_summarizer
from treerag_core.views.tree_view import ancestors, search_nodes, section_document, tree_slice
from ui import state
from ui.tree_logic import PAGE_SIZE

TREE = "pages/tree.py"


class FakeAgraph:
    """Stands in for streamlit_agraph.agraph: records what was drawn, returns a 'click'."""

    def __init__(self) -> None:
        self.click: str | None = None
        self.calls: list[dict[str, Any]] = []

    def __call__(self, nodes, edges, config):  # noqa: ANN001, ANN204
        self.calls.append({"nodes": nodes, "edges": edges, "config": config})
        return self.click


@pytest.fixture
def graph(monkeypatch: pytest.MonkeyPatch) -> FakeAgraph:
    fake = FakeAgraph()
    monkeypatch.setattr(streamlit_agraph, "agraph", fake)
    return fake


def _big_doc(registry: Path, tmp_path: Path, chapters: int = 40, sections: int = 50) -> dict:
    parts = []
    for c in range(chapters):
        parts.append(f"# Chapter {c}\nChapter {c} intro.\n")
        for s in range(sections - 1):
            parts.append(f"## Section {c}.{s}\nText of section {c}.{s} about topic{c}x{s}.\n")
    path = tmp_path / "big.md"
    path.write_text("\n".join(parts))
    return index_document(
        str(path), summarizer=make_summarizer(None), registry_path=str(registry), verbose=False
    )


def test_empty_registry_says_so(make_app, graph: FakeAgraph) -> None:
    at = make_app(TREE)
    assert not at.exception
    assert "No documents yet" in texts(at)


def test_graph_is_hierarchical_and_click_opens_panel(make_app, sample_doc, graph) -> None:  # noqa: ANN001
    at = make_app(TREE)
    assert not at.exception
    assert "Structure from markdown headings · 4 sections" in [c.value for c in at.caption]
    drawn = graph.calls[-1]
    assert [n.id for n in drawn["nodes"]] == ["0000", "0002", "0001", "0003"]
    cfg = drawn["config"]
    assert cfg.layout["hierarchical"]["enabled"] is True
    assert cfg.layout["hierarchical"]["direction"] == "LR"
    assert cfg.groups == {} and "direction" not in cfg.__dict__
    assert all(n.title.startswith(n.id) for n in drawn["nodes"])
    colours = {n.id: n.color for n in drawn["nodes"]}
    assert colours["0000"] == colours["0002"] != colours["0001"]  # colour by level
    graph.click = "0001"
    at.run()
    assert not at.exception
    assert at.session_state[state.TREE_SELECTED] == "0001"
    assert [s.value for s in at.subheader] == ["Scope"]
    assert "Introduction \\> Scope" in texts(at)  # escaped Markdown
    assert "The scope covers PDF and Markdown files." in [t.value for t in at.text]
    selected = next(n for n in graph.calls[-1]["nodes"] if n.id == "0001")
    assert selected.color == "#d62728"


def test_search_jumps_to_node(make_app, sample_doc, graph) -> None:  # noqa: ANN001
    at = make_app(TREE)
    at.text_input(key="tree_search").input("BM25").run()
    hit = next(b for b in at.button if b.key == "hit_0002")
    hit.click().run()
    assert at.session_state[state.TREE_SELECTED] == "0002"
    assert [s.value for s in at.subheader] == ["Methods"]


def test_outline_lists_nodes_and_selects(make_app, sample_doc, graph) -> None:  # noqa: ANN001
    at = make_app(TREE)
    outline = at.radio(key="tree_outline_pick")
    assert outline.options == [
        "Introduction",
        "\u2003Scope",
        "Methods",
        "\u2003Data",
    ]  # indented like a table of contents (pages none: Markdown)
    assert outline.value is None
    outline.set_value("0003").run()
    assert [s.value for s in at.subheader] == ["Data"]
    assert at.radio(key="tree_outline_pick").value == "0003"


def test_large_document_is_capped_and_drills_down(make_app, app_registry, tmp_path, graph) -> None:  # noqa: ANN001
    doc = _big_doc(app_registry, tmp_path)
    assert doc["total_sections"] == 2000
    at = make_app(TREE)
    assert not at.exception
    drawn = [n.id for n in graph.calls[-1]["nodes"]]
    assert len(drawn) == PAGE_SIZE  # one group of top-level chapters; 49 sections each hidden
    assert "of 2000 sections" in texts(at)
    assert f"Group 1 of {-(-40 // PAGE_SIZE)} at this level" in texts(at)
    at.button(key="tree_next").click().run()
    first = f"{PAGE_SIZE * 50:04d}"  # the first chapter of the second group
    assert [n.id for n in graph.calls[-1]["nodes"]][0] == first
    at.button(key="tree_prev").click().run()
    graph.click = "0050"  # Chapter 1: its children are hidden → drill down
    at.run()
    assert at.session_state[state.TREE_FOCUS] == "0050"
    drawn = [n.id for n in graph.calls[-1]["nodes"]]
    assert drawn[0] == "0050" and len(drawn) == PAGE_SIZE + 1
    assert len(graph.calls[-1]["edges"]) == PAGE_SIZE
    crumbs = [b for b in at.button if str(b.key).startswith("crumb_")]
    assert [c.label for c in crumbs] == ["All sections", "Chapter 1"]
    crumbs[0].click().run()
    assert at.session_state[state.TREE_FOCUS] is None
    assert all(len(call["nodes"]) <= 150 for call in graph.calls)


def test_reference_deep_node_is_made_visible(make_app, app_registry, tmp_path, graph) -> None:  # noqa: ANN001
    _big_doc(app_registry, tmp_path)
    at = make_app()
    at.session_state[state.TREE_SELECTED] = "1999"
    at.switch_page(TREE).run()
    assert "1999" in [n.id for n in graph.calls[-1]["nodes"]]


def test_ask_about_section_goes_to_chat(make_app, sample_doc, graph) -> None:  # noqa: ANN001
    at = make_app(TREE)
    graph.click = "0003"
    at.run()
    at.button(key="panel_ask").click().run()
    assert not at.exception
    assert at.session_state[state.CHAT_CONTEXT]["node_id"] == "0003"
    assert [t.value for t in at.title] == ["Chat"]


def test_hostile_heading_never_reaches_tooltip_html(
    make_app, app_registry, tmp_path, graph
) -> None:  # noqa: ANN001
    path = tmp_path / "x.md"
    path.write_text("# <img src=x onerror=alert(1)> javascript:alert(2)\nbody **bold** <b>x</b>\n")
    index_document(str(path), registry_path=str(app_registry), verbose=False)
    at = make_app(TREE)
    node = graph.calls[-1]["nodes"][0]
    assert "<" not in node.title and ">" not in node.title and node.title.startswith("0000")
    graph.click = "0000"
    at.run()
    assert "<b>x</b>" in at.text[0].value  # full text shown as plain text


def test_tree_view_helpers() -> None:
    flat = {
        "0000": {"node_id": "0000", "title": "A", "level": 1, "parent_id": None, "children": ["0001"], "text": "", "tags": ["Zeta"]},
        "0001": {"node_id": "0001", "title": "B", "level": 2, "parent_id": "0000", "children": ["0002"], "text": "alpha beta", "tags": []},
        "0002": {"node_id": "0002", "title": "C", "level": 3, "parent_id": "0001", "children": [], "text": "gamma", "tags": []},
    }  # fmt: skip
    assert ancestors(flat, "0002") == ["0000", "0001", "0002"]
    view = tree_slice(flat, None, depth=2)
    assert view.node_ids == ["0000", "0001"] and view.hidden_children == {"0001": 1}
    assert view.edges == [("0000", "0001")]
    assert tree_slice(flat, "0001", depth=5).node_ids == ["0001", "0002"]
    capped = tree_slice(flat, None, depth=5, max_nodes=1)
    assert capped.node_ids == ["0000"] and capped.truncated
    wide = {
        f"{i:04d}": {"node_id": f"{i:04d}", "title": str(i), "level": 1, "parent_id": None, "children": []}
        for i in range(30)
    }  # fmt: skip
    paged = tree_slice(wide, None, depth=3, page=2, page_size=12)
    assert (
        paged.pages == 3
        and paged.page == 2
        and paged.node_ids == [f"{i:04d}" for i in range(24, 30)]
    )
    assert search_nodes(flat, "zeta") == [("0000", "tag")]
    assert search_nodes(flat, "ALPHA") == [("0001", "text")]
    assert search_nodes(flat, "c")[0] == ("0002", "title")
    sub = section_document({"doc_id": "d", "flat_nodes": flat}, "0001")
    assert list(sub["flat_nodes"]) == ["0001", "0002"]
    assert sub["flat_nodes"]["0001"]["parent_id"] is None and flat["0001"]["parent_id"] == "0000"


def test_parents_open_one_by_one_while_the_level_fits() -> None:
    text = "# A\n" + "".join(f"## a{i}\nx\n" for i in range(3))
    text += "# B\n" + "".join(f"## b{i}\nx\n" for i in range(20))
    text += "# C\n## c0\nx\n"
    flat = flatten_tree(build_hierarchy(parse_sections(text)))
    view = tree_slice(flat, None, depth=2, max_level_width=16)
    titles = [flat[n]["title"] for n in view.node_ids]
    assert titles == ["A", "B", "C", "a0", "a1", "a2", "c0"]
    b = next(n for n in view.node_ids if flat[n]["title"] == "B")
    assert view.hidden_children == {b: 20} and view.truncated
