"""What an agent is told about each tool: named constants, overridable like the prompts.

A tool's description is a prompt: it decides when an agent calls the tool and what it
passes. Both adapters (LangChain and MCP) read them from here; ``make_tools`` and the MCP
server take a replacement mapping.
"""

from __future__ import annotations

TOOL_NAMES = ("list_documents", "browse", "search", "read", "ask")

TOOL_DESCRIPTIONS: dict[str, str] = {
    "list_documents": (
        "List the indexed documents you may read: doc_id, name, collection, pages, "
        "sections, indexed_at. Start here to get doc_ids. Paged: when 'truncated', call "
        "again with offset=next_offset."
    ),
    "browse": (
        "Show a document's outline like a table of contents: sections with node_id, title, "
        "pages, a short summary and how many sub-sections ('children'). Without node_id: "
        "the top levels; with node_id: the sections below it. 'below' nests the levels "
        "shown; a section with 'children' but no 'below' can be browsed by its node_id. "
        "Use it to find where something is, then read that section."
    ),
    "search": (
        "Rank sections by how well their text matches the query (keyword ranking over "
        "every section's passages; no model). Each hit: doc_id, node_id, title, path, the "
        "pages of its best passage, a snippet, and the offset of that passage for read. "
        "Searches every readable document unless doc_ids are given."
    ),
    "read": (
        "Read a section's own text (not its sub-sections') with its path and pages. Long "
        "sections come a page at a time: when 'next_offset' is present, call again with "
        "offset=next_offset. A heading lists its sub-sections to read by node_id. Cite "
        "what you use as doc_id/node_id with its pages."
    ),
    "ask": (
        "Answer a question in one step, from the documents named or (with no doc_ids) from "
        "the whole library, where it goes to the documents it is about: the sections are "
        "chosen and the answer is written with references [S1], [S2] to sections and "
        "pages (by the configured model, or the offline engine's extractive answer, "
        "which quotes the documents' own sentences). 'support' says, sentence by sentence, "
        "whether the sections cited hold what it states (supported / partly / "
        "unsupported, with the section and page); a model answer that could not be "
        "checked is replaced by the extractive one ('model_answer' keeps it). Prefer "
        "browse/search/read when you want to check the text yourself."
    ),
}
