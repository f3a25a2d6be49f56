from treerag_core import build_hierarchy, build_tree_outline, flatten_tree, parse_sections
from treerag_core.tree.sections import escape_text


def titles(text, **kw):
    return [(s["title"], s["level"]) for s in parse_sections(text, **kw)]


def test_atx_setext_and_closing_hashes():
    text = "Main\n====\nintro\n\nSub\n---\nbody\n\n## Closed ##\nx\n"
    assert titles(text) == [("Main", 1), ("Sub", 2), ("Closed", 2)]


def test_nothing_inside_code_is_a_heading():
    text = "# Real\n```python\n# comment\nx = 1\n```\n~~~\n## also not\n~~~\n    # indented code\n"
    sections = parse_sections(text)
    assert [s["title"] for s in sections] == ["Real"]
    assert "# comment" in sections[0]["text"] and "## also not" in sections[0]["text"]


def test_text_before_first_heading_is_its_own_leading_node():
    sections = parse_sections("Preface words here.\nMore.\n\n# Chapter 1\nBody\n## 1.1\nDeep\n")
    assert sections[0]["title"] == "Preface words here."
    assert sections[0]["text"].startswith("Preface")
    flat = flatten_tree(build_hierarchy(sections))
    assert flat["0000"]["parent_id"] is None and flat["0000"]["children"] == []
    assert flat["0001"]["children"] == ["0002"]


def test_page_ranges_come_from_form_feeds():
    text = "# A\none\fstill A\f# B\nthree\n## C\nC text\fpage four\n"
    got = [(s["title"], s["page_start"], s["page_end"]) for s in parse_sections(text)]
    assert got == [("A", 1, 2), ("B", 3, 3), ("C", 3, 4)]


def test_escaped_lines_are_not_headings_and_are_unescaped():
    body = escape_text("# of shares 100\n---\n```")
    sections = parse_sections("# Real\n" + body)
    assert [s["title"] for s in sections] == ["Real"]
    assert sections[0]["text"] == "# of shares 100\n---\n```"


def test_oversized_section_becomes_child_parts():
    paragraph = ("word " * 200).strip()
    text = "# Big\n" + "\n\n".join([paragraph] * 30) + "\n# Next\nsmall"
    sections = parse_sections(text, max_section_chars=3000)
    assert sections[0]["title"] == "Big" and sections[0]["text"] == ""
    parts = [s for s in sections if s.get("generated")]
    assert len(parts) >= 10 and all(len(p["text"]) <= 3000 for p in parts)
    # no stand-in titles: each piece named by what it holds, none by its parent's title
    titles = [p["title"] for p in parts]
    assert titles[0].startswith("word word") and titles[1].startswith("Big (continued): word")
    assert len(set(titles)) == len(titles) and "Big" not in titles
    assert all(p["level"] == 2 for p in parts)
    assert sections[-1]["title"] == "Next"
    flat = flatten_tree(build_hierarchy(sections))
    assert len(flat["0000"]["children"]) == len(parts)


def test_unstructured_text_is_cut_into_bounded_parts_titled_by_first_line():
    text = "\n".join(f"Line {i} of a long unstructured note." for i in range(2000))
    sections = parse_sections(text, max_section_chars=5000)
    assert all(len(s["text"]) <= 5000 for s in sections)
    assert sections[0]["title"].startswith("Line 0") and sections[1]["generated"]
    titles = [s["title"] for s in sections[1:]]
    assert titles[0].startswith("Line 0 of a long unstructured note. Line 1")
    assert titles[1].startswith("Line 0 of a long unstructured note (continued): Line ")
    assert len(set(titles)) == len(titles) and sections[0]["title"] not in titles


def test_flat_nodes_paths_levels_and_outline():
    text = "# Chapter 2\nintro\n## 2.1 Data\nrows\n### Detail\nd\n# Chapter 3\nend\n"
    flat = flatten_tree(build_hierarchy(parse_sections(text)))
    assert list(flat) == ["0000", "0001", "0002", "0003"]
    assert flat["0001"]["path"] == "Chapter 2 > 2.1 Data"
    assert flat["0002"]["level"] == 3 and flat["0002"]["parent_id"] == "0001"
    assert flat["0000"]["fingerprint"] != flat["0003"]["fingerprint"]
    flat["0001"]["summary"] = "Tables of data"
    flat["0001"]["tags"] = ["rows", "tables"]
    outline = build_tree_outline(flat)
    assert "  - [0001] 2.1 Data — Tables of data | Tags: rows, tables" in outline.splitlines()


def test_level_jumps_nest_under_nearest_shallower_heading():
    flat = flatten_tree(build_hierarchy(parse_sections("# A\n### C\n## B\n")))
    assert flat["0001"]["parent_id"] == "0000" and flat["0002"]["parent_id"] == "0000"


def test_a_piece_of_a_long_section_is_never_a_parent() -> None:
    """A heading two levels below a long section goes under the section, beside the pieces
    its text was cut into, not under the last piece."""
    body = "\n\n".join(f"Exhibit {i}.1 is the plan of year {i}." for i in range(60))
    text = f"## Exhibit Index\n{body}\n#### Officer Plan\nThe plan.\n##### Article I\nTerms.\n"
    flat = flatten_tree(build_hierarchy(parse_sections(text, max_section_chars=500)))
    by_title = {node["title"]: node for node in flat.values()}
    index, plan = by_title["Exhibit Index"], by_title["Officer Plan"]
    pieces = [flat[c] for c in index["children"] if flat[c].get("generated")]
    assert len(pieces) > 1
    assert plan["parent_id"] == index["node_id"]
    assert by_title["Article I"]["parent_id"] == plan["node_id"]
    assert not any(piece["children"] for piece in pieces)


def test_headings_nest_below_markdowns_six_levels():
    """A filing's exhibit (Part › Item › index › plan › Article › section) goes deeper than
    Markdown's six levels: a seventh level nests under the sixth, not beside it."""
    text = "".join(f"{'#' * n} L{n}\nx\n" for n in range(1, 10)) + "########## ten\nbody\n"
    assert [(t, lvl) for t, lvl in titles(text)] == [(f"L{n}", n) for n in range(1, 10)]
    flat = flatten_tree(build_hierarchy(parse_sections(text)))
    deepest = next(node for node in flat.values() if node["title"] == "L9")
    assert deepest["level"] == 9 and deepest["path"].startswith("L1 > L2")
    assert "########## ten" in deepest["text"]  # past the deepest level: text, not a heading


def test_a_pieces_title_is_no_cell_of_a_tables_header_and_no_broken_line():
    """Walmart's Item 1 cut in pieces: each piece was titled "Owned and", the first cell of a
    table header set one cell a line ("Owned and", "Operated", "Third Party", …). A title
    that stops on "and" or "in" is a line broken off, and a run of short cells is a header:
    the piece takes the next heading it holds, else its opening words."""
    from treerag_core.tree.pieces import piece_titles

    prose = "The segment sells through stores and online, in every market it serves."
    header = ["as of January 31, 2018 :", "Owned and", "Operated", "Owned and", "Third Party"]
    parts = [
        [(1, "Our business begins here with a sentence."), (1, prose)],
        [
            (2, prose),
            *[(2, cell) for cell in header],
            (2, "Walmart U.S. distribution facilities 103 2 23 157"),
            (2, prose),
            (2, "Sam's Club Segment"),
            (2, prose),
        ],
        [(3, "Pretax Gain (Loss) Recognized in"), (3, "Income on Derivatives"), (3, prose)],
    ]
    assert piece_titles("Item 1 Business", parts, "p") == [
        "Our business begins here with a sentence. The segment sells…",
        "Item 1 (continued): Sam's Club Segment",
        "Item 1 (continued): Pretax Gain (Loss) Recognized in Income on Derivatives The…",
    ]
