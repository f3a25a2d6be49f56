"""Per-page pypdf text of a PDF, cached as JSON next to the benchmark outputs.

Why: pypdf extraction costs ~0.1 s a page, and the development set has 5,772 pages; the
chunk baseline and the evaluation need page texts on every run, so they are extracted once.
The cache key is the file's size and mtime, so a replaced PDF is re-read.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

DEFAULT_CACHE = Path(__file__).resolve().parent / "out" / "page_cache"


def _key(pdf_path: Path) -> str:
    stat = pdf_path.stat()
    raw = f"{pdf_path.resolve()}|{stat.st_size}|{int(stat.st_mtime)}"
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def extract_pages(pdf_path: str | os.PathLike[str]) -> list[str]:
    """Every page's text as pypdf counts pages (``reader.pages[n - 1]`` is page ``n``)."""
    from pypdf import PdfReader

    reader = PdfReader(str(pdf_path))
    if reader.is_encrypted:
        reader.decrypt("")
    pages: list[str] = []
    for page in reader.pages:
        try:
            pages.append(page.extract_text() or "")
        except Exception:  # noqa: BLE001 - one broken page must not lose the filing
            pages.append("")
    return pages


def cached_pages(
    pdf_path: str | os.PathLike[str], cache_dir: str | os.PathLike[str] = DEFAULT_CACHE
) -> list[str]:
    """Page texts from the cache, extracting (and storing) them on the first call."""
    path = Path(pdf_path)
    cache = Path(cache_dir) / f"{path.stem}.{_key(path)}.json"
    if cache.exists():
        return json.loads(cache.read_text(encoding="utf-8"))
    pages = extract_pages(path)
    cache.parent.mkdir(parents=True, exist_ok=True)
    tmp = cache.with_suffix(".tmp")
    tmp.write_text(json.dumps(pages, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, cache)
    return pages


def main(argv: list[str]) -> int:
    """Warm the cache for every PDF under the given folders (run once, in the background)."""
    default = Path(__file__).resolve().parents[2] / "shared" / "bench" / "financebench" / "pdfs"
    for folder in argv or [str(default)]:
        for pdf in sorted(Path(folder).glob("*.pdf")):
            pages = cached_pages(pdf)
            print(f"{pdf.name}: {len(pages)} pages", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
