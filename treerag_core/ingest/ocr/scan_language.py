"""Which language a scan is read in, found before its pages are read (see ``languages``):
the setting when it names one, else the document's text layer, its card as an editor
corrected it, or a probe of its first scanned pages."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from ...limits import Limits
from ...text.language import detect_language
from ..pages import ReadOptions
from .languages import ENGLISH, OcrLanguage, choose, is_auto, script_reader
from .page_cache import PageCache
from .tesseract import installed_languages, tesseract_path

# A scan's language is probed on its first pages: a cover or a blank page tells nothing,
# and three pages get past a title page and a contents page's few words.
PROBE_PAGES = 3
OSD = "osd"  # Tesseract's orientation and script data (Debian: tesseract-ocr-osd)
Render = Callable[[], bytes]


def scan_language(
    jobs: list[tuple[int, Render]],
    pages: PageCache,
    limits: Limits,
    options: ReadOptions,
    text: str,
    workers: int,
) -> OcrLanguage:
    """The language to read the scan in: the setting when it names one; else the language
    of the document's text layer, of its card as an editor corrected it, or of a probe."""
    if not is_auto(limits.ocr_language):
        return OcrLanguage(limits.ocr_language)
    program = tesseract_path()
    installed = installed_languages(program) if program else None  # None: not known here
    language = detect_language(text)
    if language:
        return choose(language, "", installed, text)
    language = options.edited_language() if options.edited_language else ""
    if language:
        return choose(language, "", installed)
    if options.progress is not None:
        options.progress(0, len(jobs), "Finding the language of the scan")
    language, script, sample = _probe(jobs[:PROBE_PAGES], pages, installed, workers)
    return choose(language, script, installed, sample)


def _probe(
    jobs: list[tuple[int, Render]],
    pages: PageCache,
    installed: frozenset[str] | None,
    workers: int,
) -> tuple[str, str, str]:
    """(language, script, text read) from the first scanned pages that tell them.

    OSD names a page's script while the page is read in English, both at once: an English
    scan, the commonest, then costs only the OSD, as that reading is the page's own. A page
    in another script is read again in that script's data (English reads Russian as letter
    soup that looks Romanian to the stopwords); a page too bare to tell (a cover) passes
    the question to the next one.
    """
    first_script = ""
    with ThreadPoolExecutor(max_workers=min(2, workers)) as pool:
        for number, render in jobs:
            png = _once(render)
            osd = installed is None or OSD in installed
            script_read = pool.submit(pages.script, number, png) if osd else None
            english = pool.submit(pages.page, number, ENGLISH, png)
            script = script_read.result() if script_read is not None else ""
            first_script = first_script or script
            reader = script_reader(script, installed)
            if not reader:
                return "", script, ""  # nothing installed reads it
            read = english.result() if reader == ENGLISH else pages.page(number, reader, png)
            language = detect_language(read.text)
            if language:
                return language, script, read.text
    return "", first_script, ""


def _once(render: Render) -> Render:
    """``render`` run at most once, however many threads ask (OSD and the English read)."""
    lock, made = threading.Lock(), []

    def png() -> bytes:
        with lock:
            if not made:
                made.append(render())
        return made[0]

    return png
