"""A scan is read in its own language when Tesseract has the data for it, and says which
package to install when not; an explicit TREERAG_OCR_LANGUAGE is used as it is; the OCR
cache is kept per language, so a language pack installed later reads the scan again.

The scans are rendered in the test (Pillow, DejaVu Serif: umlauts and accents as printed).
A language "missing" is one truly not installed here, or one left out of a private data
folder (TESSDATA_PREFIX with links to some of the installed files): nothing is removed.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from fpdf import FPDF
from PIL import Image, ImageDraw, ImageFont

from treerag_core.library.catalog import edit_card
from treerag_core.library.indexing import index_upload
from treerag_core.limits import Limits
from treerag_core.read.ocr.languages import (
    OcrLanguage,
    choose,
    package_of,
    script_reader,
    tesseract_code,
)
from treerag_core.read.ocr.page_cache import page_key
from treerag_core.read.ocr.scan_language import Probe
from treerag_core.read.ocr.tesseract import OcrLine, OcrPage, installed_languages
from treerag_core.settings import load
from treerag_core.store import open_store

FONTS = Path("/usr/share/fonts/truetype/dejavu")
DPI = 300
GERMAN = [
    "Prüfung der Größe und Qualität",
    "Die Prüfung der Maschinen erfolgt jährlich durch einen unabhängigen Gutachter.",
    "Dabei werden die Größe der Anlage, die Drücke in den Leitungen und die",
    "Sicherheit der Schaltkreise überprüft. Über die Ergebnisse wird ein Bericht",
    "erstellt, der dem Betreiber innerhalb von zwei Wochen zugestellt wird.",
    "Für Mängel gilt eine Frist von dreißig Tagen. Alle Prüfungen werden im",
    "Prüfbuch eingetragen und von der Leitung gegengezeichnet.",
]
# The text page of a PDF whose other page is a scan of GERMAN (without its words).
TEXT_PAGE = (
    "Dieser Bericht fasst die Ergebnisse des Jahres zusammen. Die Anlage ist seit dem Jahr "
    "2019 in Betrieb und wird von einem Team aus zwölf Personen betreut. Auf der nächsten "
    "Seite folgt der Auszug aus dem Protokoll, wie er bei der Behörde eingereicht wurde."
)
# Scans in languages whose data may be missing: the test takes one that truly is.
OTHERS = {
    "fra": [
        "Contrôle de la qualité et de la sécurité",
        "Le contrôle des machines est effectué chaque année par un expert indépendant.",
        "On vérifie la taille de l'installation, les pressions dans les conduites et la",
        "sécurité des circuits. Un rapport est établi sur les résultats et il est remis",
        "à l'exploitant dans un délai de deux semaines. Pour les défauts, un délai de",
        "trente jours s'applique. Tous les contrôles sont inscrits dans le registre.",
    ],
    "spa": [
        "Control de la calidad y de la seguridad",
        "El control de las máquinas se realiza cada año por un experto independiente.",
        "Se comprueban el tamaño de la instalación, las presiones en los conductos y la",
        "seguridad de los circuitos. Sobre los resultados se redacta un informe que se",
        "entrega al operador en un plazo de dos semanas. Para los defectos hay un plazo",
        "de treinta días. Todos los controles se anotan en el libro de registro.",
    ],
    "ita": [
        "Controllo della qualità e della sicurezza",
        "Il controllo delle macchine viene eseguito ogni anno da un esperto indipendente.",
        "Si verificano le dimensioni dell'impianto, le pressioni nelle condotte e la",
        "sicurezza dei circuiti. Sui risultati viene redatta una relazione che è consegnata",
        "al gestore entro due settimane. Per i difetti vale un termine di trenta giorni.",
        "Tutti i controlli sono annotati nel registro e firmati dalla direzione.",
    ],
}


def installed() -> set[str]:
    """The languages installed on this machine (as the test starts: no private folder)."""
    if shutil.which("tesseract") is None:
        return set()
    done = subprocess.run(["tesseract", "--list-langs"], capture_output=True, text=True)
    return {line.strip() for line in done.stdout.splitlines()[1:] if line.strip()}


def data_folder() -> Path:
    done = subprocess.run(["tesseract", "--list-langs"], capture_output=True, text=True)
    return Path(re.search(r'"([^"]+)"', done.stdout)[1])  # type: ignore[index]


INSTALLED = installed()


def scan_png(lines: list[str]) -> bytes:
    """A page printed with ``lines`` (a bold title, then body text) and scanned at 300 dpi."""
    image = Image.new("L", (int(8.27 * DPI), int(6 * DPI)), 255)
    draw = ImageDraw.Draw(image)
    title = ImageFont.truetype(str(FONTS / "DejaVuSerif-Bold.ttf"), 16 * DPI // 72)
    body = ImageFont.truetype(str(FONTS / "DejaVuSerif.ttf"), 11 * DPI // 72)
    y = DPI
    for index, line in enumerate(lines):
        draw.text((DPI, y), line, font=title if index == 0 else body, fill=0)
        y += (26 if index == 0 else 16) * DPI // 72
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", dpi=(DPI, DPI))
    return buffer.getvalue()


def text_of(doc: dict) -> str:
    return "\n".join(f"{n['title']}\n{n['text']}" for n in doc["flat_nodes"].values())


@pytest.fixture
def only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # noqa: ANN201
    """Tesseract with only some of its installed languages: a private data folder of links."""

    system = data_folder()  # before the private folder is set

    def use(*codes: str) -> tuple[Path, Path]:
        """(the private folder, the system's): Tesseract now sees only ``codes``."""
        folder = tmp_path / "tessdata"
        folder.mkdir(exist_ok=True)
        for code in codes:
            (folder / f"{code}.traineddata").symlink_to(system / f"{code}.traineddata")
        for configs in ("configs", "tessconfigs"):  # the tsv output's settings live there
            if (system / configs).is_dir() and not (folder / configs).exists():
                (folder / configs).symlink_to(system / configs)
        monkeypatch.setenv("TESSDATA_PREFIX", f"{folder}/")
        return folder, system

    return use


needs_german = pytest.mark.system("tesseract-deu")  # missing: fails naming the package


@pytest.mark.slow
@needs_german
def test_a_german_scan_is_read_in_german(tmp_path: Path) -> None:
    seen: list[str] = []
    doc = index_upload(
        "pruefung.png",
        scan_png(GERMAN),
        registry_path=str(tmp_path / "r.json"),
        progress=lambda done, total, message: seen.append(message),
    )
    assert doc["ocr_language"] == "deu" and doc["language"] == "de"
    assert not doc["warnings"]
    assert "Reading the scan again in deu" in seen  # told by its English reading
    text = text_of(doc)
    for word in ("Größe", "Prüfung", "Qualität", "unabhängigen", "dreißig", "Mängel"):
        assert word in text, (word, text)


@pytest.mark.slow
def test_a_scan_whose_language_is_not_installed_names_the_package(tmp_path: Path) -> None:
    code = next((c for c in OTHERS if c not in INSTALLED), None)
    if code is None:  # every candidate is installed here: then none is missing to test
        pytest.skip(f"{', '.join(OTHERS)} are all installed")
    doc = index_upload(f"{code}.png", scan_png(OTHERS[code]), registry_path=str(tmp_path / "r"))
    assert doc["ocr_language"] == "eng"  # read with what is installed
    package = f"tesseract-ocr-{code}"
    assert any(package in w and f"sudo apt-get install {package}" in w for w in doc["warnings"]), (
        doc["warnings"]
    )
    assert "registr" in text_of(doc).lower()  # the text is read all the same


RUSSIAN = [
    "Проверка размера и качества",
    "Проверка машин проводится ежегодно независимым экспертом. При этом проверяются",
    "размер установки, давление в трубопроводах и безопасность электрических цепей.",
    "По результатам составляется отчёт, который передаётся оператору в течение двух",
    "недель. Для устранения недостатков даётся срок в тридцать дней.",
]


@pytest.mark.slow
def test_a_scan_in_another_script_is_told_by_osd(tmp_path: Path) -> None:
    """Russian read with English's data is letter soup (its stopwords look Romanian): OSD
    names the script, and the scan is read in Russian, or the package is named."""
    doc = index_upload("otchet.png", scan_png(RUSSIAN), registry_path=str(tmp_path / "r"))
    if "rus" in INSTALLED:
        assert doc["ocr_language"] == "rus" and "Проверка" in text_of(doc)
    else:
        assert doc["ocr_language"] == "eng"
        assert any(
            "Cyrillic script" in w and "sudo apt-get install tesseract-ocr-rus" in w
            for w in doc["warnings"]
        ), doc["warnings"]


@pytest.mark.slow
def test_the_upload_page_names_the_missing_package(make_app) -> None:  # noqa: ANN001
    code = next((c for c in OTHERS if c not in INSTALLED), None)
    if code is None:
        pytest.skip(f"{', '.join(OTHERS)} are all installed")
    at = make_app("pages/upload.py")
    at.file_uploader[0].set_value([(f"{code}.png", scan_png(OTHERS[code]), "image/png")])
    at.run()
    next(b for b in at.button if b.label == "Index").click().run(timeout=120)
    assert not at.exception and not at.error
    shown = [w.value.replace("\\", "") for w in at.warning]  # Markdown escapes out
    assert any(f"install tesseract-ocr-{code}" in w for w in shown), shown


@pytest.mark.slow
@needs_german
def test_an_explicit_language_setting_is_used_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reg = str(tmp_path / "r.json")
    monkeypatch.setenv("TREERAG_OCR_LANGUAGE", "eng")
    doc = index_upload("pruefung.png", scan_png(GERMAN), registry_path=reg)
    assert doc["ocr_language"] == "eng" and not doc["warnings"]
    cache, dpi = open_store(reg).cache("ocr"), Limits().ocr_dpi
    assert cache.get(page_key(doc["content_hash"], 1, dpi, "eng"))
    assert not cache.get(page_key(doc["content_hash"], 1, dpi, "deu"))
    monkeypatch.setenv("TREERAG_OCR_LANGUAGE", "eng+deu")
    doc = index_upload("pruefung.png", scan_png(GERMAN), registry_path=reg, overwrite=True)
    assert doc["ocr_language"] == "eng+deu" and "Größe" in text_of(doc)


@pytest.mark.slow
@needs_german
def test_a_language_pack_installed_later_reads_the_scan_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, only
) -> None:  # noqa: ANN001
    reg = str(tmp_path / "r.json")
    png = scan_png(GERMAN)
    only("eng", "osd")  # German's data not installed (yet)
    first = index_upload("pruefung.png", png, registry_path=reg)
    assert first["ocr_language"] == "eng"
    assert any("install tesseract-ocr-deu" in w for w in first["warnings"]), first["warnings"]
    monkeypatch.delenv("TESSDATA_PREFIX")  # now it is: the same file indexed again
    again = index_upload("pruefung.png", png, registry_path=reg, overwrite=True)
    assert again["ocr_language"] == "deu" and not again["warnings"]
    assert "Größe" in text_of(again) and "Prüfung" in text_of(again)
    cache, source_hash = open_store(reg).cache("ocr"), again["content_hash"]
    for code in ("eng", "deu"):  # each reading kept under its own language
        assert cache.get(page_key(source_hash, 1, Limits().ocr_dpi, code)), code
    # The German reading is what a third index finds: no Tesseract needed for it.
    monkeypatch.setenv("PATH", str(tmp_path))
    third = index_upload("pruefung.png", png, registry_path=reg, overwrite=True)
    assert third["ocr_language"] == "deu" and text_of(third) == text_of(again)


@pytest.mark.slow
@needs_german
def test_the_text_layer_tells_the_scanned_pages_language(tmp_path: Path) -> None:
    """A PDF with a German text page and a scanned one: the scan is read in German, told
    by the text page, without reading the scan in English first."""
    pdf = FPDF()
    pdf.add_font("DejaVu", fname=str(FONTS / "DejaVuSerif.ttf"))
    pdf.add_page()
    pdf.set_font("DejaVu", size=12)
    pdf.multi_cell(0, 7, TEXT_PAGE)
    pdf.add_page()
    pdf.image(Image.open(io.BytesIO(scan_png(GERMAN))), x=0, y=0, w=210)
    reg = str(tmp_path / "r.json")
    seen: list[str] = []
    doc = index_upload(
        "bericht.pdf",
        bytes(pdf.output()),
        registry_path=reg,
        progress=lambda done, total, message: seen.append(message),
    )
    assert doc["ocr_pages"] == 1 and doc["ocr_language"] == "deu"
    assert "Größe" in text_of(doc) and "Mängel" in text_of(doc)  # only the scan says them
    cache, dpi = open_store(reg).cache("ocr"), Limits().ocr_dpi
    assert not cache.get(page_key(doc["content_hash"], 2, dpi, "eng"))  # nothing probed
    assert not any(m.startswith("Reading the scan again") for m in seen)


def test_an_editors_language_on_the_card_is_followed_on_a_reindex(tmp_path: Path) -> None:
    """The card's language, as an editor corrected it, comes before the probe (not before
    the document's own text layer, which a scan has none of)."""
    reg = str(tmp_path / "r.json")
    png = scan_png(GERMAN)
    doc = index_upload("pruefung.png", png, registry_path=reg)
    assert doc["ocr_language"] == "deu"
    edit_card(doc["doc_id"], {"language": "en"}, reg)
    again = index_upload("pruefung.png", png, registry_path=reg, overwrite=True)
    assert again["ocr_language"] == "eng"


@needs_german
def test_installed_languages_sees_a_pack_installed_while_running(only) -> None:  # noqa: ANN001
    folder, system = only("eng", "osd")
    program = "tesseract"
    assert installed_languages(program) == {"eng", "osd"}
    (folder / "deu.traineddata").symlink_to(system / "deu.traineddata")
    stat = os.stat(folder)  # an install changes the folder; make sure the clock shows it
    os.utime(folder, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert installed_languages(program) == {"eng", "osd", "deu"}


@pytest.mark.parametrize(
    ("language", "script", "have", "code", "missing"),
    [
        ("de", "", {"eng", "deu", "osd"}, "deu", ""),
        ("de", "", {"eng", "osd"}, "eng", "deu"),
        ("en", "Latin", {"eng", "osd"}, "eng", ""),
        ("uk", "", {"eng", "rus"}, "rus", "ukr"),  # another Cyrillic language's data
        ("", "Cyrillic", {"eng", "osd"}, "eng", "rus"),
        ("", "Han", {"eng"}, "eng", "chi_sim"),
        ("ja", "Japanese", {"eng", "jpn"}, "jpn", ""),
        ("", "", {"eng"}, "eng", ""),  # nothing told: English, nothing to install
    ],
)
def test_the_language_table(
    language: str, script: str, have: set[str], code: str, missing: str
) -> None:
    chosen = choose(language, script, frozenset(have))
    assert (chosen.code, chosen.missing) == (code, missing)
    if missing:
        assert f"sudo apt-get install {package_of(missing)}" in chosen.warning
    else:
        assert chosen.warning == ""


def test_the_warnings_read_plainly() -> None:
    german = choose("de", "", frozenset({"eng"}))
    assert german.warning.startswith(
        "This scan looks German; install tesseract-ocr-deu for better recognition "
        "(sudo apt-get install tesseract-ocr-deu)"
    )
    cyrillic = OcrLanguage("eng", "", "Cyrillic", missing="rus")
    assert "Cyrillic script" in cyrillic.warning and "tesseract-ocr-rus" in cyrillic.warning
    assert package_of("chi_tra") == "tesseract-ocr-chi-tra"
    assert tesseract_code("zh", "這個問題們來說") == "chi_tra"
    assert tesseract_code("zh", "这个问题们来说") == "chi_sim"
    assert script_reader("Cyrillic", frozenset({"eng"})) == ""  # nothing reads it here
    assert script_reader("Cyrillic", frozenset({"eng", "rus"})) == "rus"
    assert Limits().ocr_language == "auto"
    assert load(ocr_language="deu").limits().ocr_language == "deu"


class _Pages:
    """A PageCache stand-in: OSD's script and the pages read in other data, without Tesseract."""

    def __init__(self, script: str, texts: dict[str, str]) -> None:
        self.osd, self.texts, self.asked = script, texts, []

    def script(self, number: int, png) -> str:  # noqa: ANN001
        self.asked.append(("osd", number))
        return self.osd

    def page(self, number: int, code: str, png) -> OcrPage:  # noqa: ANN001
        self.asked.append((code, number))
        return _page(self.texts[code], 90.0)


def _page(text: str, confidence: float) -> OcrPage:
    return OcrPage(100, 100, [OcrLine(text.split(), (0, 0, 1, 1))], confidence)


def _probe(pages: _Pages, installed: set[str], count: int = 3) -> Probe:
    return Probe([(n, lambda: b"") for n in range(1, count + 1)], pages, frozenset(installed))  # type: ignore[arg-type]


def test_the_probe_tells_a_latin_page_by_its_english_reading_without_osd() -> None:
    pages = _Pages("Latin", {})
    probe = _probe(pages, {"eng", "deu", "osd"})
    probe.tell(1, _page(" ".join(GERMAN).replace("ö", "o").replace("ü", "u"), 88.0))
    assert probe.decided is not None and probe.decided.code == "deu"
    assert pages.asked == []  # read confidently in English: Latin script, no OSD asked


def test_the_probe_reads_another_script_in_its_own_data() -> None:
    russian = "Проверка машин проводится ежегодно и по результатам составляется отчёт для оператора"
    pages = _Pages("Cyrillic", {"rus": russian})
    probe = _probe(pages, {"eng", "rus", "osd"})
    probe.tell(1, _page("IIpopepka MallIMH IIPOBORUTCA u no", 30.0))  # English letter soup
    assert probe.decided is not None and (probe.decided.code, probe.decided.missing) == ("rus", "")
    assert pages.asked == [("osd", 1), ("rus", 1)]
    bare = _probe(_Pages("Cyrillic", {}), {"eng", "osd"})  # no Cyrillic data at all
    bare.tell(1, _page("IIpopepka", 30.0))
    assert bare.decided is not None and bare.decided.missing == "rus"
    assert "Cyrillic script" in bare.decided.warning


def test_a_bare_first_page_passes_the_question_to_the_next() -> None:
    probe = _probe(_Pages("", {}), {"eng", "deu", "osd"})
    probe.tell(1, _page("Jahresbericht 2023", 91.0))  # a cover: too few words to tell
    assert probe.decided is None
    probe.tell(2, _page(" ".join(GERMAN), 90.0))
    assert probe.decided is not None and probe.decided.code == "deu"
    last = _probe(_Pages("", {}), {"eng", "osd"}, count=1)
    last.tell(1, _page("2023", 91.0))  # the only page tells nothing: English
    assert last.decided is not None and (last.decided.code, last.decided.missing) == ("eng", "")
