"""Which Tesseract language a scan is read in: its own, when the data for it is installed.

Tesseract reads a page well only with its language's data: German read as English loses
every umlaut ("Größe" comes out "Gro&e"), and Russian read as English is letter soup. The
scan's language is told, in order, from the document's own text layer (a PDF whose other
pages carry text), from an editor's correction of the document's language (a re-index), or
from a probe of its first scanned pages: Tesseract's script detection (OSD) and the page
read in that script's data, told by :func:`~treerag_core.text.language.detect_language`.
A setting other than ``auto`` (``TREERAG_OCR_LANGUAGE``) is used as it is. When the data
is not installed, the scan is read with what is, and the document says which package to
install.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...text.language import language_name

AUTO = "auto"
# The language every Tesseract install carries (Debian's tesseract-ocr depends on it).
ENGLISH = "eng"
# A Latin-script language is read with its own data alone, not "+eng": on ten pages of the
# German Debian FAQ rendered at 200 dpi (many English commands among the words; python -m
# bench.ocr_languages), deu read 96.7% of the words (precision 98.1%), deu+eng 97.0%
# (98.7%) in 26% more time, gaining digits and "dpkg" but losing umlaut words ("händisch",
# "geführt"); eng alone read 91.1% (92.5%).

# ISO 639-1 (the codes of text/language.py) → (Tesseract's data, the script it is written
# in). Debian's package is tesseract-ocr-<data> with "_" as "-" (see ``package_of``).
TESSERACT: dict[str, tuple[str, str]] = {
    "en": ("eng", "Latin"), "de": ("deu", "Latin"), "fr": ("fra", "Latin"),
    "es": ("spa", "Latin"), "it": ("ita", "Latin"), "pt": ("por", "Latin"),
    "nl": ("nld", "Latin"), "sv": ("swe", "Latin"), "da": ("dan", "Latin"),
    "no": ("nor", "Latin"), "fi": ("fin", "Latin"), "pl": ("pol", "Latin"),
    "cs": ("ces", "Latin"), "sk": ("slk", "Latin"), "ro": ("ron", "Latin"),
    "hu": ("hun", "Latin"), "tr": ("tur", "Latin"), "ca": ("cat", "Latin"),
    "id": ("ind", "Latin"), "vi": ("vie", "Latin"), "ru": ("rus", "Cyrillic"),
    "uk": ("ukr", "Cyrillic"), "bg": ("bul", "Cyrillic"), "ar": ("ara", "Arabic"),
    "fa": ("fas", "Arabic"), "hi": ("hin", "Devanagari"), "ja": ("jpn", "Japanese"),
    "zh": ("chi_sim", "Han"), "ko": ("kor", "Korean"), "el": ("ell", "Greek"),
    "he": ("heb", "Hebrew"), "th": ("tha", "Thai"),
}  # fmt: skip
# The scripts Tesseract's OSD names → the data of the script's commonest language: what a
# page in that script is read with when its language cannot be told (yet).
SCRIPTS: dict[str, str] = {
    "Latin": "eng", "Cyrillic": "rus", "Greek": "ell", "Arabic": "ara", "Hebrew": "heb",
    "Han": "chi_sim", "Japanese": "jpn", "Katakana": "jpn", "Hiragana": "jpn",
    "Korean": "kor", "Hangul": "kor", "Devanagari": "hin", "Thai": "tha",
    "Bengali": "ben", "Tamil": "tam", "Telugu": "tel", "Kannada": "kan",
    "Malayalam": "mal", "Gujarati": "guj", "Gurmukhi": "pan", "Oriya": "ori",
    "Georgian": "kat", "Armenian": "hye", "Ethiopic": "amh", "Khmer": "khm",
    "Lao": "lao", "Myanmar": "mya", "Sinhala": "sin", "Tibetan": "bod", "Fraktur": "frk",
}  # fmt: skip
# Characters written one way in Traditional and another in Simplified Chinese (pairs in the
# same order): whichever set a Chinese text uses more of picks chi_tra or chi_sim.
TRADITIONAL = "這個們來說為國會時對學後與發經開關體實動長還問題見點種電業產"
SIMPLIFIED = "这个们来说为国会时对学后与发经开关体实动长还问题见点种电业产"


@dataclass(frozen=True)
class OcrLanguage:
    """What a document's scanned pages are read in, and what would read them better."""

    code: str  # Tesseract's languages as given to ``-l`` ("deu", "eng+deu")
    language: str = ""  # the language the scan was found to be in (ISO 639-1), "" unknown
    script: str = ""  # the script OSD named, when the probe asked it
    missing: str = ""  # the data that would read it better but is not installed

    @property
    def warning(self) -> str:
        """The package to install, in words a person acts on; "" when nothing is missing."""
        if not self.missing:
            return ""
        package = package_of(self.missing)
        used = f"It was read with {self.code} for now"
        if self.language:
            return (
                f"This scan looks {language_name(self.language)}; install {package} for "
                f"better recognition (sudo apt-get install {package}), then index it "
                f"again. {used}."
            )
        return (
            f"This scan is written in {self.script} script, which the installed Tesseract "
            f"languages cannot read; install {package} or the package for its language "
            f"(sudo apt-get install {package}), then index it again. {used}."
        )


def package_of(code: str) -> str:
    """Debian's package for Tesseract's data ``code``: chi_sim → tesseract-ocr-chi-sim."""
    return "tesseract-ocr-" + code.lower().replace("_", "-")


def tesseract_code(language: str, text: str = "") -> str:
    """Tesseract's data for an ISO 639-1 language ("" when it has none in the table);
    Chinese is Traditional when ``text`` uses more Traditional characters."""
    if language == "zh" and text:
        traditional = sum(text.count(c) for c in TRADITIONAL)
        return "chi_tra" if traditional > sum(text.count(c) for c in SIMPLIFIED) else "chi_sim"
    return TESSERACT.get(language, ("", ""))[0]


def script_reader(script: str, installed: frozenset[str] | None) -> str:
    """The data a probe reads a page in ``script`` with: the script's commonest language if
    installed, English for Latin (or an unknown) script; "" when nothing installed reads it.
    ``installed`` None: not known (no Tesseract here: only cached pages are read)."""
    code = SCRIPTS.get(script, ENGLISH)
    if installed is None or code in installed:
        return code
    return ENGLISH if code == ENGLISH or script == "Fraktur" else ""


def choose(
    language: str, script: str, installed: frozenset[str] | None, text: str = ""
) -> OcrLanguage:
    """The data to read a scan in ``language`` (or, not told, in ``script``) with, given the
    ``installed`` data: its own, else the script's commonest language's, else English."""
    wanted = tesseract_code(language, text) or SCRIPTS.get(script, ENGLISH)
    script = script or TESSERACT.get(language, ("", "Latin"))[1]
    if installed is None or wanted in installed:
        return OcrLanguage(wanted, language, script)
    same_script = SCRIPTS.get(script, ENGLISH)
    fallback = same_script if same_script in installed else ENGLISH
    return OcrLanguage(fallback, language, script, missing=wanted)


def is_auto(setting: str) -> bool:
    return setting.strip().lower() in ("", AUTO)
