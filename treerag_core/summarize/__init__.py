"""summarize: each section's summary and tags, and the document's card.

``summarizers`` holds the model and offline summarizers behind one call signature;
``keyterms`` is the offline engine's summaries and tags; ``card`` describes the whole
document for the library (kind, periods, names, description).
"""

from .summarizers import SummaryBudget, make_summarizer, null_summarizer

__all__ = ["make_summarizer", "null_summarizer", "SummaryBudget"]
