"""Which language a scan is read in (see ``languages``): the setting when it names one, else
the document's text layer, its card as an editor corrected it, or a probe of the scan's
first pages as they are read."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from ...limits import Limits
from ...text.language import detect_language
from ..pages import ReadOptions
from .languages import ENGLISH, OcrLanguage, choose, is_auto, script_reader
from .page_cache import PageCache
from .tesseract import OcrPage

# A scan's language is probed on its first pages: a cover or a blank page tells nothing,
# and three pages get past a title page and a contents page's few words.
PROBE_PAGES = 3
OSD = "osd"  # Tesseract's orientation and script data (Debian: tesseract-ocr-osd)
Render = Callable[[], bytes]


def settled_language(
    limits: Limits, options: ReadOptions, text: str, installed: frozenset[str] | None
) -> OcrLanguage | None:
    """The language known before the scan is read: the setting when it names one; else
    the language of the document's text layer (``text``), or of its card as an editor
    corrected it. None: the scan itself must tell (:class:`Probe`)."""
    if not is_auto(limits.ocr_language):
        return OcrLanguage(limits.ocr_language)
    language = detect_language(text)
    if language:
        return choose(language, "", installed, text)
    language = options.edited_language() if options.edited_language else ""
    return choose(language, "", installed) if language else None


class Probe:
    """A scan's language told by its first pages as they are read in English.

    English first, as the commonest: an English scan's probe reading is its own, and costs
    only OSD's look at the first page's script (about half a second, in the background,
    beside the pages being read). The script decides what the reading means: a Latin page's
    English text is told by its stopwords (German read as English still shows "der", "und");
    a page in another script is read again in that script's data (English reads Russian as
    letter soup that looks Romanian to the stopwords); a script nothing installed reads is
    read in English, and said. A page too bare to tell (a cover) passes to the next one.
    """

    def __init__(
        self, jobs: list[tuple[int, Render]], pages: PageCache, installed: frozenset[str] | None
    ) -> None:
        self.first = dict(jobs[:PROBE_PAGES])
        self.pages, self.installed = pages, installed
        self.seen: set[int] = set()
        self.decided: OcrLanguage | None = None
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="treerag-osd")
        number, render = jobs[0]
        osd = installed is None or OSD in installed  # None: no Tesseract, cached pages only
        self._script: Future[str] | None = (
            self._pool.submit(pages.script, number, render) if osd else None
        )

    def __enter__(self) -> Probe:
        return self

    def __exit__(self, *exc: object) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)

    def tell(self, number: int, english: OcrPage) -> None:
        """Page ``number`` as read in English: sets ``decided`` once a first page tells."""
        if self.decided is not None or number not in self.first or number in self.seen:
            return
        self.seen.add(number)
        script = self._script.result() if self._script is not None else ""
        reader = script_reader(script, self.installed)
        if not reader:  # nothing installed reads the script: English it is, and said so
            self.decided = choose("", script, self.installed)
            return
        read = english if reader == ENGLISH else self.pages.page(number, reader, self.first[number])
        language = detect_language(read.text)
        if language or len(self.seen) == len(self.first):
            self.decided = choose(language, script, self.installed, read.text)
