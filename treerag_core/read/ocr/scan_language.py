"""Which language a scan is read in (see ``languages``): the setting when it names one, else
the document's text layer, its card as an editor corrected it, or a probe of the scan's
first pages as they are read."""

from __future__ import annotations

from collections.abc import Callable

from ...limits import Limits
from ...structure.pages import ReadOptions
from ...text.language import detect_language
from .languages import ENGLISH, OcrLanguage, choose, is_auto, script_reader
from .page_cache import PageCache
from .tesseract import OcrPage

# A scan's language is probed on its first pages: a cover or a blank page tells nothing,
# and three pages get past a title page and a contents page's few words.
PROBE_PAGES = 3
OSD = "osd"  # Tesseract's orientation and script data (Debian: tesseract-ocr-osd)
# A page English's data reads with at least this mean word confidence is in Latin script:
# Latin pages read at 89-96 (English, German and French test pages, three filings, the
# German Debian FAQ), Cyrillic and Greek ones at 30-43. Only a page below it has OSD name
# its script (half a second a page; OSD alone is unsafe on a Latin page: at 100 dpi it
# took a filing's page for Cyrillic).
LATIN_CONFIDENCE = 70.0
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

    English first, as the commonest: an English scan's probe reading is its own and costs
    nothing more. A page English's data reads confidently is in Latin script, and its text
    is told by its stopwords (German read as English still shows "der", "und"). Any other
    page has OSD name its script; a page in another script is read again in that script's
    data (English reads Russian as letter soup that looks Romanian to the stopwords), and a
    script nothing installed reads is read in English, and said. A page too bare to tell
    (a cover) passes to the next one.
    """

    def __init__(
        self, jobs: list[tuple[int, Render]], pages: PageCache, installed: frozenset[str] | None
    ) -> None:
        self.first = dict(jobs[:PROBE_PAGES])
        self.pages, self.installed = pages, installed
        self.seen: set[int] = set()
        self.decided: OcrLanguage | None = None

    def tell(self, number: int, english: OcrPage) -> None:
        """Page ``number`` as read in English: sets ``decided`` once a first page tells."""
        if self.decided is not None or number not in self.first or number in self.seen:
            return
        self.seen.add(number)
        script = "Latin" if english.confidence >= LATIN_CONFIDENCE else self._script(number)
        reader = script_reader(script, self.installed)
        if not reader:  # nothing installed reads the script: English it is, and said so
            self.decided = choose("", script, self.installed)
            return
        read = english if reader == ENGLISH else self.pages.page(number, reader, self.first[number])
        language = detect_language(read.text)
        if language or len(self.seen) == len(self.first):
            self.decided = choose(language, script, self.installed, read.text)

    def _script(self, number: int) -> str:
        """The script OSD names on page ``number`` ("" when it cannot tell, or has no data)."""
        if self.installed is not None and OSD not in self.installed:
            return ""
        return self.pages.script(number, self.first[number])
