"""A comparison across documents with a model: the app's table, the model's conclusion.

"Compare gross margin across Acme, Globex and Initech from 2022 to 2023" needs the same
quantity read or computed in each document and period. The offline engine already answers
it as a table with every cell computed from cited cells
(:func:`.offline.computed.compared_reply`); a model asked to do the same would emit one
calculation per cell (six blocks for three documents and two years, each naming two cells)
and the answer would be a stack of results, not a table the chat can draw. So, with a
model, the app computes that table before the answer call and sends it with the sections:
the model writes only its conclusion from it (and may ask for a calculation where a cell
says "not found"). The answer then shows the table with the app's own headline (highest and
lowest, computed), the model's conclusion beneath, and a note saying who did what; the
support check weighs the model's figures against the table's. A question the offline
engine cannot answer as a comparison leaves the prompt as it was.
"""

from __future__ import annotations

from .context import Prepared
from .offline.computed import compared_reply

# Told after the quotes, only when the app computed a comparison's table.
COMPARISON_NOTE = (
    "The app has computed the comparison the question asks from the documents' tables, "
    "each cell from cited table cells; the reader sees this table above your answer:\n\n"
    "{table}\n\n"
    "Do not repeat the table and do no arithmetic: write the conclusion it supports in one "
    "sentence, citing the sections. Where a cell says 'not found' and the sections print "
    "its operands, you may add a compute block for it."
)


def comparison_note(query: str, prepared: Prepared) -> str:
    """What the answer model is told of the comparison ``query`` asks across the prepared
    documents (empty when it asks none the offline engine can tabulate); the table is kept
    on ``prepared.compared`` to lead the answer."""
    if len(prepared.documents) < 2 or prepared.overview:
        return ""
    table = compared_reply(query, prepared, prepared.language(query), note="")
    if table is None:
        return ""
    prepared.compared = table
    return COMPARISON_NOTE.format(table=table)
