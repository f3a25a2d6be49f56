"""evidence: where a cited passage sits on its page, and the page drawn with it highlighted."""

from .locate import sentence_offsets
from .render import EvidencePage, crop_to_evidence, locate_evidence, render_evidence

__all__ = [
    "crop_to_evidence",
    "EvidencePage",
    "locate_evidence",
    "render_evidence",
    "sentence_offsets",
]
