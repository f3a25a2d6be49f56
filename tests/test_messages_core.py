"""The core's own words from the message catalogue: page labels, the names of what gave a
tree its structure, the typed errors (by key, said in the person's language by the app) and
the notes under an answer (in the answer's language); the library's defaults stay English."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
import streamlit_agraph
from conftest import ask, texts

from treerag_core import index_document
from treerag_core.errors import DocumentTooLargeError, EmptyDocumentError, TreeragError
from treerag_core.limits import Limits
from treerag_core.read.formats import (
    PAGED_STRATEGIES,
    RUNNING_TEXT_STRATEGIES,
    check_upload,
    format_for_name,
)
from treerag_core.read.source import read_bytes
from treerag_core.structure.skeleton import BOOKMARKS_SOURCE, SKELETON_SOURCE
from treerag_core.structure.typeset import (
    CONTENTS_SOURCE,
    MIXED_SOURCE,
    TYPOGRAPHY_PART,
    TYPOGRAPHY_SOURCE,
)
from treerag_core.summarize.summarizers import make_summarizer
from treerag_core.text.messages import EN, message
from treerag_core.tree import page_label
from treerag_core.views import evidence_caption, source_name
from treerag_core.views.names import source_key

ROOT = Path(__file__).resolve().parents[1]
HANDBUCH = """# Mitarbeiterhandbuch

Dieses Handbuch beschreibt die Regeln für alle Mitarbeiter der Firma.

# Urlaub

Jeder Mitarbeiter hat 30 Tage bezahlten Urlaub im Jahr. Nicht genommene Tage verfallen am
31. März des Folgejahres.

# Arbeitszeit

Die Wochenarbeitszeit beträgt 38 Stunden. Die Kernzeit liegt zwischen 10 und 15 Uhr.
"""


def test_page_labels_in_each_language_english_by_default() -> None:
    assert page_label(4, None) == "p. 4" and page_label(4, 6) == "pp. 4–6"
    assert page_label(4, 4, "slide") == "slide 4" and page_label(2, 3, "sheet") == "sheets 2–3"
    assert page_label(4, 6, language="de") == "S. 4–6"
    assert page_label(4, None, "slide", "de-AT") == "Folie 4"
    assert page_label(None, None, language="de") == ""
    ref = {"ref": "S3", "path": "Item 7 > Liquidity"}
    assert evidence_caption(ref, 45) == "S3 · Item 7 › Liquidity, p. 45"
    assert evidence_caption(ref, 45, "de") == "S3 · Item 7 › Liquidity, S. 45"


def _reader_sources() -> set[str]:
    """Every ``structure_source="…"`` a reader sets, and the e-book's contents' names."""
    found = set()
    for path in (ROOT / "treerag_core" / "read" / "readers").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.keyword) and node.arg == "structure_source":
                if isinstance(node.value, ast.Constant):
                    found.add(node.value.value)
    return found | {"e-book contents (EPUB 3)", "e-book contents (NCX)", "e-book reading order"}


def test_every_structure_source_has_a_name_in_the_catalogue() -> None:
    sources = {s.name for s in (*PAGED_STRATEGIES, *RUNNING_TEXT_STRATEGIES)}
    sources |= {BOOKMARKS_SOURCE, SKELETON_SOURCE, CONTENTS_SOURCE, MIXED_SOURCE}
    sources |= {TYPOGRAPHY_SOURCE, TYPOGRAPHY_PART, "headings", "none", *_reader_sources()}
    assert len(sources) >= 18
    for source in sources:
        assert EN.get(source_key(source)) == source, source  # English says it as stored
        assert source_name(source) == source
        assert source_name(source, "de") == message(source_key(source), "de")
    assert source_name("printed contents and typography", "de") == (
        "gedrucktes Inhaltsverzeichnis und Typografie"
    )
    assert source_name("a strategy of tomorrow", "de") == "a strategy of tomorrow"
    assert source_name(None, "de") == "unbekannt"


def _raised(data: bytes, name: str) -> TreeragError:
    with pytest.raises(TreeragError) as caught:
        read_bytes(data, name)
    return caught.value


def test_errors_carry_their_key_and_say_it_in_english() -> None:
    """``str(exc)`` is the catalogue's English (callers and their tests see no change); the
    key and values say the same in German."""
    cases = [
        (_raised(b"  \n", "a.md"), EmptyDocumentError, "a.md is empty: there is nothing to index."),
        (_raised(b"hello", "a.pdf"), TreeragError, "a.pdf is not a PDF file (no %PDF header)."),
        (_raised(b"%PDF-1.4 broken", "b.pdf"), TreeragError, None),
    ]
    with pytest.raises(TreeragError) as unsupported:
        format_for_name("notes.xyz")
    cases.append((unsupported.value, TreeragError, None))
    with pytest.raises(DocumentTooLargeError) as big:
        check_upload("big.pdf", 10**9, Limits())
    cases.append((big.value, DocumentTooLargeError, None))
    for exc, kind, english in cases:
        assert isinstance(exc, kind) and exc.key, exc
        assert str(exc) == message(exc.key, "en", **exc.values)
        assert english is None or str(exc) == english
        assert message(exc.key, "de", **exc.values) != str(exc)
    assert str(unsupported.value).startswith("Unsupported file type .xyz for 'notes.xyz'.")
    german = message(unsupported.value.key, "de", **unsupported.value.values)
    assert german.startswith("Dateityp .xyz von 'notes.xyz' wird nicht unterstützt.")


@pytest.fixture
def handbuch(app_registry: Path, tmp_path: Path) -> dict:
    """A German handbook as a PDF (one chapter a page, bookmarks), indexed offline."""
    from make_sample_pdf import make

    source = tmp_path / "handbuch.md"
    source.write_text(HANDBUCH, encoding="utf-8")
    pdf = make(source, tmp_path / "handbuch.pdf")
    return index_document(
        str(pdf), summarizer=make_summarizer(None), registry_path=str(app_registry),
        verbose=False,
    )  # fmt: skip


def test_a_german_answer_has_german_page_labels_and_notes(
    make_app, handbuch, monkeypatch: pytest.MonkeyPatch
) -> None:  # noqa: ANN001
    """Asked in German of a German PDF with the app in German, the answer's citation, its
    note, its Sources line and the structure caption say "S. 2", not "p. 2"."""
    monkeypatch.setattr(streamlit_agraph, "agraph", lambda nodes, edges, config: None)
    assert handbuch["structure_source"] == "bookmarks"
    at = make_app("pages/settings.py")
    at.selectbox(key="settings_language").set_value("de").run()
    at.switch_page("pages/chat.py").run()
    ask(at, "Wie viele Tage Urlaub hat ein Mitarbeiter?")
    assert not at.exception
    shown = texts(at).replace("\\", "")
    assert "30 Tage bezahlten Urlaub" in shown
    assert "S. 2" in shown and "p. 2" not in shown
    assert message("note.offline", "de") in shown and message("note.offline", "en") not in shown
    assert "Quellen: S1 Urlaub, S. 2" in shown
    turn = at.session_state["chat_thread"]["turns"][-1]
    assert "[S1, S. 2]" in turn["answer"]


def test_an_error_on_a_page_is_in_german(make_app, app_registry: Path, monkeypatch) -> None:  # noqa: ANN001
    """An upload refused (empty, over the limit) and a URL refused by the network guard read
    in German when the app is in German."""
    monkeypatch.setenv("TREERAG_MAX_FILE_BYTES", "100")
    at = make_app("pages/settings.py")
    at.selectbox(key="settings_language").set_value("de").run()
    at.switch_page("pages/upload.py").run()
    errors = []
    for name, data in (("leer.md", b"   \n"), ("gross.md", b"# Gross\n" + b"x" * 500)):
        at.file_uploader[0].set_value([(name, data, "text/markdown")])
        at.run()
        next(b for b in at.button if b.label == message("upload.index", "de")).click().run()
        assert not at.exception
        errors += [e.value for e in at.error]
    assert "leer.md ist leer: Es gibt nichts zu indexieren." in errors
    assert any(e.startswith("gross.md ist 0.0 MB groß, über der Grenze") for e in errors)
    assert not any("nothing to index" in e or "over the upload limit" in e for e in errors)
    at.text_input(key="upload_url").input("http://127.0.0.1:9/secret").run()
    next(b for b in at.button if b.label == message("upload.index", "de")).click().run()
    assert not at.exception
    [shown] = [e.value for e in at.error if "127.0.0.1" in e.value]
    assert shown.startswith("'127.0.0.1' wird nicht abgerufen: ")
    assert "Erlaubt sind nur öffentliche Internetadressen" in shown


def test_an_evaluation_note_in_the_person_language(app_registry: Path) -> None:
    """The Evaluate page's note on a PDF gone from disk is worded in the language asked."""
    from ui.evaluate_logic import page_texts_with_notes

    gone = {"doc_id": "d1", "file_name": "report.pdf", "file_path": "/nowhere/report.pdf"}
    for language, start in (("de", "report.pdf: Die Quelldatei"), (None, "report.pdf: the source")):
        notes: list[str] = []
        assert page_texts_with_notes(app_registry, notes, language)(gone) is None
        assert len(notes) == 1 and notes[0].startswith(start)


def _refusal(raise_it) -> TreeragError:  # noqa: ANN001
    with pytest.raises(TreeragError) as caught:
        raise_it()
    return caught.value


def _reading(data: bytes, name: str):  # noqa: ANN202
    return lambda: read_bytes(data, name)


def _denied_admin() -> None:
    from treerag_core.access.principal import Principal
    from treerag_core.access.rules import require_admin
    from treerag_core.sync.sources import MANAGING

    require_admin(Principal("ann@example.org"), MANAGING)


def _not_a_page() -> None:
    from treerag_core.chat.regression import parse_pages

    parse_pages("twelve")


def _no_thread() -> None:
    from treerag_core.chat.threads import _not_found

    raise _not_found("t-gone")


def _hidden_document() -> None:
    from treerag_core.access.rules import not_found

    raise not_found("d1")


def _blocked(url: str):  # noqa: ANN202
    from treerag_core.read.readers.netguard import split_url, vet_host

    def raise_it() -> None:
        parts = split_url(url)
        vet_host(parts.hostname or "", parts.port or 80, allow_private=False)

    return raise_it


def _sync(call: str):  # noqa: ANN202
    from treerag_core.sync import config, folder, patterns, s3

    calls = {
        "folder": lambda: folder.check_folder("/nowhere/at/all"),
        "bucket": lambda: s3.parse_s3_url("http://bucket/prefix"),
        "both": lambda: config.credentials_ref("AWS_KEYS", "/etc/keys"),
        "patterns": lambda: patterns.check_patterns(["*.pdf"] * 10_000, "exclude"),
    }
    return calls[call]


def _importing(data: bytes):  # noqa: ANN202
    from treerag_core.store.export import parse_import

    return lambda: parse_import(data, max_bytes=1000)


def _questions(lines: list[str]):  # noqa: ANN202
    from treerag_core.evaluation.questions import parse_questions

    return lambda: parse_questions(lines, "q.jsonl")


def _bad_document(node: dict) -> bytes:
    """A treerag export of one document whose only section is ``node``."""
    import json

    document = {"doc_id": "d1", "file_name": "a.pdf", "file_path": "/a.pdf",
                "flat_nodes": {"n1": node}}  # fmt: skip
    return json.dumps({"format": "treerag-export", "version": 1, "documents": [document]}).encode()


def _bad_thread_id() -> None:
    import tempfile

    from treerag_core.store.thread_files import ThreadFiles

    with tempfile.TemporaryDirectory() as folder:
        ThreadFiles(folder, f"{folder}/lock").save({"owner": "ann", "thread_id": "../t1"})


def _bad_document_id() -> None:
    import tempfile

    from treerag_core.store.tinydb_store import TinyDBStore

    with tempfile.TemporaryDirectory() as folder:
        TinyDBStore(f"{folder}/registry.json").get("../d1")


def _bad_collection() -> None:
    from treerag_core.store.originals import upload_key

    upload_key("a.pdf", b"x", collection="../up")


def _mcp(call: str):  # noqa: ANN202
    from treerag_core.tools import mcp_auth

    calls = {
        "short": lambda: mcp_auth.parse_token_file('{"tokens": [{"user": "ann", "token": "x"}]}'),
        "exposed": lambda: mcp_auth.check_exposure("", None),
    }
    return calls[call]


def _empty_tool_query() -> None:
    import tempfile

    from treerag_core.client import Library
    from treerag_core.tools import RegistryTools

    with tempfile.TemporaryDirectory() as folder:
        RegistryTools(Library.open(f"{folder}/registry.json")).search("   ")


def _asking(call: str):  # noqa: ANN202
    """A refusal met while asking or running, raised by the real call."""
    from types import SimpleNamespace

    from treerag_core.jobs.api import job_queue
    from treerag_core.library.catalog import _checked
    from treerag_core.llm.providers import make_chat_model
    from treerag_core.navigate.history import conversation
    from treerag_core.route.routing import route
    from treerag_core.settings import load
    from treerag_core.text.formula import parse

    calls = {
        "formula": lambda: parse("1 +"),
        "jobs": lambda: job_queue(SimpleNamespace(location="registry.json")),
        "card": lambda: _checked({"language": "xx"}),
        "provider": lambda: make_chat_model("nope", "m", load()),
        "history": lambda: conversation("Q?", [{"answer": "A."}]),
        "route": lambda: route("Q?", SimpleNamespace(location="mine")),  # type: ignore[arg-type]
        "setting": lambda: load(temperature="hot"),
    }
    return calls[call]


def _question_without_document() -> None:
    import tempfile

    from treerag_core.evaluation.loader import registry_loader

    with tempfile.TemporaryDirectory() as folder:
        registry_loader(f"{folder}/registry.json")({"id": "q7", "question": "Q?"})


def _bad_registry() -> None:
    import tempfile

    from treerag_core.store.tinydb_store import AtomicJSONStorage

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        fh.write("{not json")
    try:
        AtomicJSONStorage(fh.name).read()
    finally:
        Path(fh.name).unlink()


OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
NEWLY_KEYED = [
    (_reading(b"not a zip", "a.docx"), "error.zip_invalid", "a.docx ist keine gültige .docx"),
    (_reading(b"x", "a.epub"), "error.zip_invalid", "Speichern Sie das E-Book als .epub"),
    (_reading(OLE2 + "EncryptedPackage".encode("utf-16-le"), "a.xlsx"),
     "error.office_encrypted", "a.xlsx ist passwortgeschützt (verschlüsselt)."),
    (_reading(OLE2 + b"rest", "a.doc.docx"), "error.office_old_binary", "alte binäre Office"),
    (_reading(b"hello world\n", "a.eml"), "error.mail_no_headers", "keine E-Mail-Nachricht"),
    (_reading(b"hello\n\nworld", "a.mbox"), "error.mailbox_empty", "keine lesbaren Nachrichten"),
    (_reading(b"xxxx", "a.msg"), "error.msg_not_msg", "a.msg ist keine Outlook-Nachricht"),
    (_reading(b"xx", "a.png"), "error.image_unreadable", "a.png ist kein Bild"),
    (_blocked("ftp://example.org/a"), "error.url_scheme", "Nur http- und https-URLs"),
    (_blocked("http://u:p@example.org/"), "error.url_credentials", "mit Benutzername"),
    (_blocked("http://10.0.0.1/"), "error.blocked_host",
     "10.0.0.1 ist eine Adresse eines privaten Netzes"),
    (_blocked("http://[::ffff:127.0.0.1]/"), "error.blocked_host",
     "127.0.0.1 ist eine Loopback-Adresse (eingebettet in ::ffff:7f00:1)"),
    (_hidden_document, "error.no_readable_document", "Es gibt kein Dokument 'd1'"),
    (_denied_admin, "error.admins_only",
     "Nur Administratoren dürfen synchronisierte Ordner und Buckets verwalten."),
    (_no_thread, "error.no_thread", "Es gibt keine Unterhaltung 't-gone' von Ihnen"),
    (_not_a_page, "error.not_page_number", "'twelve' ist keine Seitenzahl"),
    (_sync("folder"), "error.not_a_folder", "/nowhere/at/all ist kein Ordner"),
    (_sync("bucket"), "error.bucket_url", "'http://bucket/prefix' ist keine Bucket-URL"),
    (_sync("both"), "error.credentials_both", "Nennen Sie die Umgebungsvariable oder"),
    (_sync("patterns"), "error.patterns", "Zu viele oder zu lange Ausschluss-Muster"),
    (_importing(b"{not json"), "error.import_not_json", "Die Datei ist kein gültiges JSON"),
    (_importing(b"{}"), "error.import_not_export", "Dies ist kein treerag-Export"),
    (_importing(b" " * 2000), "error.import_too_large", "über der Importgrenze von 0 MB"),
    (_bad_registry, "error.registry_not_json", "ist kein gültiges JSON"),
    (_asking("formula"), "error.formula_expected",
     "In der Formel wurde eine Größe erwartet, gefunden wurde „das Formelende“."),
    (_asking("jobs"), "error.jobs_need_postgres", "Indexierungs-Worker brauchen ein PostgreSQL"),
    (_asking("card"), "error.card_language", "Unbekannte Sprache 'xx': Geben Sie einen"),
    (_asking("provider"), "error.provider_no_model", "Der Anbieter 'nope' hat kein Chatmodell."),
    (_asking("history"), "error.history_no_question", "Runde 1 des Verlaufs hat keine"),
    (_asking("route"), "error.no_library_index", "mine führt keinen Bibliotheksindex"),
    (_asking("setting"), "error.setting_invalid", "Der Wert von TREERAG_TEMPERATURE ist ungültig: "),
    (_question_without_document, "error.question_no_document", "Frage q7 nennt kein Dokument."),
    (_mcp("short"), "error.mcp_short_token",
     "Eintrag 1 der MCP-Token-Datei: Ein Token braucht mindestens"),
    (_mcp("exposed"), "error.mcp_no_token", "MCP wird auf allen Adressen nicht ohne Bearer-Token"),
    (_empty_tool_query, "error.tool_query_empty", "Die Suchanfrage ist leer"),
    (_importing(b'{"format": "treerag-export", "version": 1, "documents": [3]}'),
     "error.import_not_object", "Dokument 1 ist kein JSON-Objekt."),
    (_importing(_bad_document({"node_id": "n1", "title": "T", "level": 0})),
     "error.import_section_field",
     "Dokument 1 (a.pdf): Abschnitt 'n1' hat einen ungültigen Wert für level."),
    (_importing(_bad_document({"node_id": "n1", "title": "T", "level": 1, "children": ["n9"]})),
     "error.import_section_child", "Abschnitt 'n1' nennt einen fehlenden Unterabschnitt."),
    (_bad_thread_id, "error.invalid_thread_id", "'../t1' ist keine gültige Unterhaltungs-ID."),
    (_bad_document_id, "error.invalid_document_id", "'../d1' ist keine gültige Dokument-ID."),
    (_bad_collection, "error.not_collection_name", "'../up' ist kein Sammlungsname."),
    (_questions(["{oops"]), "error.questions_not_json", "q.jsonl, Zeile 1: kein JSON"),
    (_questions(['{"question": "Q?", "history": 3}']), "error.questions_history",
     "q.jsonl, Zeile 1: 'history' muss eine Liste"),
]  # fmt: skip


@pytest.mark.parametrize(("raise_it", "key", "german"), NEWLY_KEYED)
def test_a_newly_keyed_refusal_reads_in_german(raise_it, key, german, monkeypatch) -> None:  # noqa: ANN001
    """Each refusal a person meets (a reader's, the network guard's with its reason, an
    access refusal, a conversation's) keeps its English ``str(exc)`` and says it in German
    through the app's ``message_for``."""
    import ui.i18n
    from ui.errors import message_for

    exc = _refusal(raise_it)
    assert exc.key == key
    assert str(exc) == message(key, "en", **exc.values)
    monkeypatch.setattr(ui.i18n, "language", lambda: "de")
    shown = message_for(exc)
    assert german in shown and shown != str(exc)


def test_no_placeholder_takes_the_name_of_a_lookup_argument() -> None:
    """``message(key, language, **values)``: a ``{key}`` placeholder, or ``{language}`` in
    an error's words, would collide with the lookup's own arguments when it is raised."""
    import string

    for key, text in EN.items():
        names = {field for _, field, _, _ in string.Formatter().parse(text) if field}
        assert "key" not in names, key
        assert "language" not in names or not key.startswith(("error.", "address.")), key


def test_reasons_inside_a_note_follow_its_language() -> None:
    """A garbled reply's reason and the cross-language note are English as text and said in
    German in a German note."""
    from treerag_core.answer.garbled import garbled
    from treerag_core.text.messages import Phrase, said_in

    why = garbled("Yes. " + "again " * 12)
    assert why == "it repeats itself"
    assert message("note.set_aside", "de", why=why).startswith(
        "_Die Antwort des Modells ließ sich nicht am Dokument prüfen (sie wiederholt sich)"
    )
    note = Phrase("note.cross_language", asked=Phrase("language.en"), written=Phrase("language.de"))
    assert note.startswith("The question is in English and the document is in German.")
    assert said_in(note, "de").startswith("Die Frage ist auf Englisch, das Dokument auf Deutsch.")
    assert said_in("plain text", "de") == "plain text"


def test_a_damaged_office_file_is_refused_in_german_on_the_upload_page(make_app) -> None:  # noqa: ANN001
    at = make_app("pages/settings.py")
    at.selectbox(key="settings_language").set_value("de").run()
    at.switch_page("pages/upload.py").run()
    at.file_uploader[0].set_value([("kaputt.docx", b"not a zip", "application/octet-stream")])
    at.run()
    next(b for b in at.button if b.label == message("upload.index", "de")).click().run()
    assert not at.exception
    errors = " ".join(e.value for e in at.error)
    assert "kaputt.docx ist keine gültige .docx-Datei (kein lesbares ZIP-Archiv" in errors
    assert "is not a valid" not in errors


@pytest.fixture(scope="module")
def filing(tmp_path_factory) -> dict:  # noqa: ANN001
    """The generated filing of the computed-answer tests (interest expense 0 in every year)."""
    from testkit.builders import statements_pdf

    folder = tmp_path_factory.mktemp("filing")
    statements_pdf(folder / "acme_10k.pdf")
    return index_document(
        str(folder / "acme_10k.pdf"), summarizer=make_summarizer(None),
        registry_path=str(folder / "indexed_docs.json"), verbose=False,
    )  # fmt: skip


NOT_COMPUTED = [
    ("What was the interest coverage in 2023?",
     "Interest coverage, FY2023: cannot be computed: it would divide by zero "
     "(interest expense 0 is 0).",
     "Zinsdeckungsgrad, GJ 2023: nicht berechenbar: es würde durch null geteilt "
     "(interest expense 0 ist 0)."),
    ("By how much did interest expense grow from 2022 to 2023, in percent?",
     "Interest expense, FY2022–FY2023: cannot be computed: the 2022 value is zero, so there "
     "is no rate of change.",
     "Interest expense, GJ 2022–GJ 2023: nicht berechenbar: der Wert für 2022 ist null, es gibt "
     "also keine Veränderungsrate."),
]  # fmt: skip


@pytest.mark.parametrize(("question", "english", "german"), NOT_COMPUTED)
def test_why_an_answer_cannot_be_computed_follows_its_language(
    filing: dict, question: str, english: str, german: str
) -> None:
    """The problem inside the computed answer's "cannot be computed" note is said in the
    answer's language (the document's, here set on its card), English as before."""
    from treerag_core import ask, make_retriever

    assert ask(question, filing, make_retriever(None)).content.splitlines()[0] == english
    german_filing = {**filing, "card_edits": {"language": "de"}}
    assert ask(question, german_filing, make_retriever(None)).content.splitlines()[0] == german


def test_every_reason_a_computation_stops_is_said_in_the_note_language(filing: dict) -> None:
    """Each stop (a name defined by itself, a CAGR of a negative value, an amount added to a
    percentage) and a formula's own refusal is English text the note says again in German."""
    from decimal import Decimal

    from treerag_core.answer.offline.asks import Ask
    from treerag_core.answer.offline.compute import Value, compute, evaluate
    from treerag_core.answer.offline.operands import TableIndex
    from treerag_core.text.formula import FormulaError, parse
    from treerag_core.text.messages import raised

    def not_a_cell(operand):  # noqa: ANN001, ANN202
        raise raised(FormulaError, "error.formula_not_cell", phrase=operand.phrase)

    def amount_or_share(operand):  # noqa: ANN001, ANN202
        return Value(Decimal(5), operand.phrase == "revenue", f"{operand.phrase} 5")

    index = TableIndex.of(filing)
    circular = Ask("Foo", "foo", (2023,), definitions={"foo": "foo + 1"})
    cagr = Ask("Loss CAGR", "0 - 5", (2021, 2023), kind="cagr")
    cases = [
        (compute(circular, index).problem, "“foo” is defined in terms of itself",
         "„foo“ ist durch sich selbst definiert"),
        (compute(cagr, index).problem, "a CAGR needs two positive values in different years",
         "eine CAGR braucht zwei positive Werte aus verschiedenen Jahren"),
        (evaluate(parse("revenue + margin"), amount_or_share)[1],
         "revenue 5 and margin 5 are not in the same unit",
         "revenue 5 und margin 5 haben nicht dieselbe Einheit"),
        (evaluate(parse("a + z"), not_a_cell)[1], "“a” is not one of the cells the model named",
         "„a“ ist keine der Zellen, die das Modell genannt hat"),
    ]  # fmt: skip
    for problem, english, german in cases:
        assert problem == english
        assert message("note.not_computed", None, head="X", problem=problem) == (
            f"X: cannot be computed: {english}."
        )
        assert message("note.not_computed", "de", head="X", problem=problem) == (
            f"X: nicht berechenbar: {german}."
        )


def _german_reports(registry: str) -> dict[str, str]:
    """Three German annual reports: two years of one company, one of another."""
    from treerag_core.library.indexing import index_upload

    ids = {}
    for name, firm, year, revenue in (("nordwind_2022.md", "Nordwind", "2022", "455"),
                                      ("nordwind_2023.md", "Nordwind", "2023", "502"),
                                      ("suedwind_2022.md", "Südwind", "2022", "90")):  # fmt: skip
        text = (f"# Geschäftsbericht {firm} {year}\n\n## Ergebnisse\nDer Umsatz von {firm} "
                f"betrug im Jahr {year} {revenue} Millionen Euro, verglichen mit dem Vorjahr.\n\n"
                "## Ausblick\nFür das nächste Jahr erwarten wir ein Wachstum des Umsatzes.\n")  # fmt: skip
        ids[name] = index_upload(name, text.encode(), registry_path=registry)["doc_id"]
    return ids


def test_a_german_library_answer_explains_its_routing_in_german(tmp_path: Path) -> None:
    """Asked of German reports, the routing's reasons, filters and notes in the answer's
    trace are German (the answer's language), and the same routing says them in English
    when asked; a question nothing matches is answered in German."""
    from treerag_core import make_retriever
    from treerag_core.answer.library import ask_library
    from treerag_core.route.routing import route
    from treerag_core.store import open_store

    registry = str(tmp_path / "lib.json")
    ids = _german_reports(registry)
    question = "Wie hoch war der Umsatz von Nordwind im Jahr 2022?"
    result = ask_library(question, make_retriever(), registry_path=registry, return_raw=False)
    library = result["trace"]["library"]
    assert library["opened"] == [ids["nordwind_2022.md"]]
    by_name = {d["file_name"]: d for d in library["documents"]}
    best, other_year = by_name["nordwind_2022.md"], by_name["nordwind_2023.md"]
    assert best["why"] == "der beste Treffer"
    assert best["period"] == "sein eigener Zeitraum, 2022, ist der gefragte"
    assert best["named"] == "seine Karte nennt Nordwind"
    assert other_year["why"] == "ausgefiltert: sein eigener Zeitraum ist 2023, nicht 2022"
    assert by_name["suedwind_2022.md"]["why"].startswith("ausgefiltert: seine Karte nennt ")
    assert "Zeitraum: 2022 → 1 Dokument(e)" in library["filters"]
    english = route(question, open_store(registry)).trace("en")
    by_name = {d["file_name"]: d for d in english["documents"]}
    assert by_name["nordwind_2022.md"]["why"] == "the best match"
    assert by_name["nordwind_2023.md"]["why"] == ("filtered out: its own period is 2023, not 2022")
    assert "period: 2022 → 1 documents" in english["filters"]
    nothing = ask_library("Wie viele Pinguine leben am Südpol?", make_retriever(),
                          registry_path=registry, return_raw=False)  # fmt: skip
    assert nothing["answer"] == message("note.nothing_found", "de")
    assert nothing["answer"].startswith("Kein Dokument, das Sie lesen dürfen, passt")
    assert nothing["trace"]["library"]["note"] == "kein Dokument der Bibliothek passt zur Frage"


def test_the_search_model_notes_in_the_trace_follow_its_language(tmp_path: Path) -> None:
    """The notes of a search model's choice (a reply naming no card; the model's pick with
    its reasoning; the offline check) are English text said in German in a German trace."""
    from treerag_core.route.routing import checked_choice, model_choice, route, routing_call
    from treerag_core.store import open_store

    registry = str(tmp_path / "lib.json")
    ids = _german_reports(registry)
    store = open_store(registry)
    question = "Wie hoch war der Umsatz von Nordwind im Jahr 2022?"
    offline = route(question, store)
    call = routing_call(question, offline, store.library_index(), 5)
    assert call is not None
    failed = model_choice(offline, call, "I cannot tell.", "", 5)
    assert failed.note == "search model: the reply named no card; the offline choice"
    assert (
        failed.trace()["note"] == "Suchmodell: die Antwort nannte keine Karte; die Offline-Auswahl"
    )
    wrong = next(n for n, c in call.numbered.items() if c.doc_id == ids["suedwind_2022.md"])
    reply = json.dumps({"node_ids": [wrong], "reasoning": "Es ist ein Geschäftsbericht."})
    checked = checked_choice(model_choice(offline, call, reply, "", 5), offline, 5)
    assert checked.language == "de"
    said = checked.trace()
    assert said["note"].startswith("Offline-Prüfung: Keines der vom Suchmodell gewählten")
    whys = {d["file_name"]: d["why"] for d in said["documents"]}
    assert whys["suedwind_2022.md"] == "vom Suchmodell gewählt: Es ist ein Geschäftsbericht."
    assert whys["nordwind_2022.md"] == (
        "der beste Treffer der Offline-Rangfolge, ebenfalls geöffnet (Offline-Prüfung)"
    )
    assert whys["nordwind_2023.md"] == "vom Suchmodell nicht gewählt"
    assert checked.trace("en")["note"].startswith("offline check: none of the documents")


def test_a_german_conversation_exports_in_german(handbuch: dict, app_registry: Path) -> None:
    """A conversation asked in German downloads with German labels (the person, the cited
    and the other sections read, the verdict, pages as "S."), its answer as it was, and a
    deleted document's references marked in German; asked for English, the same thread
    reads as before."""
    from treerag_core import ask, delete_document, make_retriever
    from treerag_core.chat.export import thread_markdown
    from treerag_core.chat.threads import (
        add_turn,
        create_thread,
        get_thread,
        make_turn,
        set_feedback,
    )

    registry = str(app_registry)
    question = "Wie viele Tage Urlaub hat ein Mitarbeiter?"
    thread = create_thread([handbuch["doc_id"]], "Urlaub", registry)
    result = ask(question, handbuch, make_retriever(None), return_raw=False)
    turn = make_turn(question, result["answer"], result)
    turn["references"].append({**turn["references"][0], "ref": "S9", "cited": False})
    add_turn(thread["thread_id"], turn, registry)
    set_feedback(thread["thread_id"], 0, "up", "stimmt", registry)
    delete_document(handbuch["doc_id"], registry)
    stored = get_thread(thread["thread_id"], registry)
    german = thread_markdown(stored)
    assert german.startswith("# Urlaub\n\nBegonnen ") and ", letzte Antwort " in german
    assert "**Sie:**\n\nWie viele Tage Urlaub hat ein Mitarbeiter?" in german
    assert message("note.offline", "de") in german
    assert "Quellen:\n- [S1] Urlaub, S. 2 · handbuch.pdf (Dokument gelöscht)" in german
    assert "Ebenfalls gelesen:\n- [S9] Urlaub, S. 2 · handbuch.pdf (Dokument gelöscht)" in german
    assert "_Als hilfreich markiert: stimmt_" in german
    for english in ("**You:**", "References:", "Also read:", "Marked", "p. 2", "deleted"):
        assert english not in german, english
    english = thread_markdown(stored, "en")
    assert "**You:**" in english and "_Marked helpful: stimmt_" in english
    assert "References:\n- [S1] Urlaub, p. 2 · handbuch.pdf (document deleted)" in english
    assert "Also read:\n- [S9]" in english and "Started " in english
    untitled = thread_markdown({"turns": [{"question": question, "error": "kaputt"}]})
    assert untitled.startswith("# treerag-Unterhaltung")
    assert "(keine Antwort)\n\n> Fehler: kaputt" in untitled
    assert thread_markdown({"turns": [{"question": "q"}]}).startswith("# treerag conversation")
