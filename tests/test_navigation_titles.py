"""A question that names a section's whole title reads that section (offline navigation).

"How many employees …" names the section "Employees": a short section whose one telling
word is outscored by long passages holding the question's other words (the company's name,
the year, "employed" in an officer's agreement). A search model reading the outline picks
it by its title; the offline ranking now does too (``treerag_core/navigate/titles.py``).
"""

from __future__ import annotations

from typing import Any

from treerag_core.navigate.offline import offline_pick
from treerag_core.navigate.ranking import question_terms, rank_nodes, ranking_statistics
from treerag_core.navigate.titles import titled_sections

NAME = "Northwind Corporation"


def _node(title: str, text: str, **extra: Any) -> dict[str, Any]:
    return {"title": title, "text": text, "children": [], "summary": "", "tags": [], **extra}


def _filing() -> dict[str, dict[str, Any]]:
    """Agreements holding every word of the questions but the one that tells; the section
    titled by that word holds it once more, and nothing else of them."""
    flat = {
        f"x{i}": _node(
            f"Separation Agreement {i}",
            f"{NAME} employed the executive until the end of 2023; the people of {NAME} at "
            f"the end of 2023 keep what {NAME} owes them; {NAME} pays the executive at the "
            f"end of 2023. The separation agreement of {NAME} is signed."
            + (f" Many employees of {NAME} were told at the end of 2023." if i < 4 else ""),
        )
        for i in range(10)
    }
    flat["emp"] = _node("Employees", "We had about 9,000 on our payroll.")
    flat["risk"] = _node("Item 1A. Risk Factors", "Competition could hurt us.")
    flat["cut"] = _node("Employees (continued)", "More on our payroll.", generated=True)
    return flat


def test_the_section_a_question_names_by_its_whole_title_is_read() -> None:
    flat = _filing()
    question = f"How many employees did {NAME} have at the end of 2023?"
    alone = [nid for nid, _ in rank_nodes(question, flat, k=3)]
    assert "emp" not in alone  # the ranking alone: the agreements hold more of the words
    picked, how = offline_pick(question, flat, 3)
    assert "emp" in picked and "'Employees'" in how
    assert "cut" not in picked  # a piece cut from a long section: its title is not printed


def test_a_titles_label_is_not_asked_for_and_a_common_title_is_no_name() -> None:
    """ "What are the risk factors …" names "Item 1A. Risk Factors" (its label is not asked
    for); a title whose words most passages hold names nothing ("Separation Agreement")."""
    flat = _filing()
    bm25, languages = ranking_statistics(flat)

    def named(question: str) -> list[str]:
        asked = set(question_terms(question, languages))
        return titled_sections(asked, flat, list(flat), bm25, languages, {})

    assert named(f"What are the risk factors of {NAME}'s business?") == ["risk"]
    flat["x3"]["title"] = "Separation Agreement"
    assert named(f"Which separation agreement did {NAME} sign in 2023?") == []
