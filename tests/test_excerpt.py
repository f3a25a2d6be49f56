from treerag_core import build_hierarchy, flatten_tree, parse_sections
from treerag_core.answer.excerpt import best_window, section_excerpt


def _long_section():
    filler = "\n".join(f"Routine operating remark number {i} about logistics." for i in range(60))
    text = (
        "# Results\n"
        + filler
        + "\f"
        + filler
        + "\fCONSOLIDATED STATEMENTS OF CASH FLOWS\nPurchases of property and equipment 1,577\n"
        + filler
    )
    return flatten_tree(build_hierarchy(parse_sections(text)))["0000"]


def test_page_marks_locate_each_page_in_a_sections_text():
    node = _long_section()
    assert (node["page_start"], node["page_end"]) == (1, 3)
    assert [page for _, page in node["page_marks"]] == [2, 3]
    offset = node["page_marks"][1][0]
    assert node["text"][offset:].startswith("CONSOLIDATED STATEMENTS OF CASH FLOWS")


def test_excerpt_is_the_passage_matching_the_question_and_cites_its_pages():
    node = _long_section()
    excerpt = section_excerpt(node, "purchases of property and equipment", 800)
    text, first, last = excerpt.text, excerpt.page_start, excerpt.page_end
    assert "Purchases of property and equipment 1,577" in text
    ((node_id, start, end),) = excerpt.spans
    assert node_id == node["node_id"] and node["text"][start:end].strip() in text
    assert text.startswith("[…") and first == 2 and last == 3  # centred on the page break
    assert len(text) < 800 + 100


def test_short_text_is_sent_whole():
    assert best_window("short text", "anything", 100) == (0, 10)
