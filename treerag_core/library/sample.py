"""The sample a newcomer can try the app with: a short staff handbook shipped beside this
module, indexed offline (no network, no key) like any upload, and a question it answers.

Why a sample at all: a person who has no document at hand, or who first wants to see what
an answer with its sources looks like, gets there in one click from an empty library.
"""

from __future__ import annotations

from pathlib import Path

from ..access.principal import Principal
from ..store import RegistryLike
from ..summarize.summarizers import make_summarizer
from ..types import Document, SummarizerFn
from .indexing import index_upload

SAMPLE_NAME = "northwind-staff-handbook.pdf"
SAMPLE_PATH = Path(__file__).with_name("sample_handbook.pdf")  # tests/make_sample_pdf.py
# A question the sample answers from one sentence, with its section cited.
SAMPLE_QUESTION = "How many days of paid annual leave does a full-time employee have?"


def sample_bytes() -> bytes:
    """The sample document's bytes (a five-page PDF)."""
    return SAMPLE_PATH.read_bytes()


def index_sample(
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
    summarizer: SummarizerFn | None = None,
) -> Document:
    """Index the sample into the registry as an upload (kept like any other, so it can be
    re-indexed, moved or deleted); offline summaries unless a summarizer is given. Indexing
    it again returns the stored document unchanged."""
    return index_upload(
        SAMPLE_NAME,
        sample_bytes(),
        summarizer=summarizer or make_summarizer(None),
        registry_path=registry_path,
        principal=principal,
    )
