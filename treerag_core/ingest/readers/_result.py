"""The shape every format reader returns, before ``read_bytes`` wraps it in a SourceText."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReadResult:
    text: str  # Markdown-style headings, "\f" on its own line between pages
    page_count: int | None = None
    title: str | None = None
