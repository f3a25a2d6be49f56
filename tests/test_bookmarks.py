"""Bookmarks placed where their titles are printed: after a number or label, wrapped over
lines, in any script, whatever their order in the outline."""

from __future__ import annotations

from treerag_core.structure.bookmarks import with_outline
from treerag_core.structure.pages import OutlineEntry


def _headings(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("#")]


def test_a_pages_bookmarks_go_where_their_titles_are_printed_in_any_outline_order() -> None:
    """Some generators list a page's bookmarks in reverse: the printed order wins, and each
    title's number ("3.1.") and wrapped second line go with it."""
    page = (
        "Chapter 3. Choosing a distribution\n"
        "3.1. Which distribution is better\n"
        "for me?\n"
        "Stable is the safe choice.\n"
        "3.2. Could you tell me which to install?\n"
        "Testing has newer packages.\n"
    )
    outline = [
        OutlineEntry("Choosing a distribution", 1, 0),
        OutlineEntry("Could you tell me which to install?", 2, 0),
        OutlineEntry("Which distribution is better for me?", 2, 0),
    ]
    text = with_outline([page], outline)
    assert _headings(text) == [
        "# Choosing a distribution",
        "## Which distribution is better for me?",
        "## Could you tell me which to install?",
    ]
    assert "for me?" not in text.replace("## Which distribution is better for me?", "")
    body = text.split("## Which distribution is better for me?")[1]
    assert body.index("Stable is the safe choice.") < body.index("## Could you")


def test_titles_in_other_scripts_and_labels_are_found() -> None:
    page = "Kapitel 11\nAnpassen Ihres Systems\nText.\n11.1 Wie groß ist das Papier?\nA4.\n"
    russian = "Глава 2\nУстановка пакетов\nТекст главы.\n"
    outline = [
        OutlineEntry("Anpassen Ihres Systems", 1, 0),
        OutlineEntry("Wie groß ist das Papier?", 2, 0),
        OutlineEntry("Установка пакетов", 1, 1),
    ]
    text = with_outline([page, russian], outline)
    lines = [line for line in text.splitlines() if line.strip()]
    assert lines[:3] == ["# Anpassen Ihres Systems", "Text.", "## Wie groß ist das Papier?"]
    assert "# Установка пакетов" in lines and "Установка пакетов" not in lines
    assert lines[lines.index("# Установка пакетов") + 1] == "Текст главы."


def test_a_title_in_a_sentence_is_not_taken_for_the_heading() -> None:
    page = "See Installing packages for details.\nBody.\nInstalling packages\nUse apt.\n"
    text = with_outline([page], [OutlineEntry("Installing packages", 1, 0)])
    lines = [line for line in text.splitlines() if line.strip()]
    assert lines == [
        "See Installing packages for details.",
        "Body.",
        "# Installing packages",
        "Use apt.",
    ]
