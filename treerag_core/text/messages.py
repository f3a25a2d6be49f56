"""The app's own words in each language: one catalogue of messages, looked up by key.

Every language has every key (``tests/test_messages.py`` checks); a language the catalogue
lacks, or a key missing by mistake, falls back to English so a message is never blank. The
answer notes the offline engine writes under an answer are here too, so a German answer
gets its note in German (the answer's language decides, not the person's). The words of
each page live in :mod:`.catalogue`, English and German side by side, joined in here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from ..errors import TreeragError
from .catalogue import PARTS

E = TypeVar("E", bound=TreeragError)

DEFAULT_LANGUAGE = "en"

EN: dict[str, str] = {
    # Answer notes (the offline engine's, in the answer's language)
    "note.offline": "(Extractive answer from the offline engine: the lines above are copied from "
    "the document's own tables and sentences that best match the question, not a generated "
    "answer.)",
    "note.no_match": "The offline engine found no table row or sentence in the selected sections "
    "that matches the question, so the document may not contain the answer.",
    # Navigation and sidebar
    "nav.library": "Library",
    "nav.upload": "Upload & index",
    "nav.tree": "Tree browser",
    "nav.chat": "Chat",
    "nav.registry": "Registry",
    "nav.evaluate": "Evaluate",
    "nav.sources": "Sources",
    "nav.settings": "Settings",
    "nav.access": "Access",
    "sidebar.engine": "Engine: {engine}",
    "sidebar.engine_bad": "Engine: not configured ({reason})",
    "engine.offline": "Offline engine (no model)",
    "error.unexpected": "Something unexpected went wrong ({kind}). Nothing stored was changed; "
    "the details are in the server log.",
    "sidebar.local_user": "Signed in: you alone (local use, no sign-in)",
    # Home
    "home.title": "Library",
    "home.welcome": "treerag answers questions from your documents and shows where each answer "
    "came from.\n\n"
    "1. **Add a document**: a PDF, Word file, slide deck, spreadsheet, e-mail or web page. It "
    "is split into its own sections and each gets a summary.\n"
    "2. **Ask a question** in plain words, of one document or of the whole library.\n"
    "3. **Check the answer**: every citation opens the cited page with the passage highlighted.",
    "home.sample": "Try it with a sample",
    "home.sample_help": "Index a five-page staff handbook shipped with treerag (offline, no "
    "network) and open the chat with a question to ask it",
    "home.sample_indexing": "Indexing the sample handbook…",
    "home.add_own": "Add your own documents",
    "home.add": "Add documents",
    "home.add_help": "Upload files or index a web page by its URL",
    "home.sync": "Sync a folder",
    "home.search": "Search the library",
    "home.search_placeholder": "A name, a kind, a year, a company…",
    "home.search_help": "Looks in each document's name and card (kind, periods, names, "
    "description)",
    "home.no_match": "No document matches “{query}”.",
    "home.count": "{count} document(s). Choose a row to open it.",
    "home.open_tree": "Open in tree",
    "home.ask_about": "Ask about it",
    "home.ask": "Ask the whole library",
    "home.ask_button": "Ask",
    "home.ask_placeholder": "Ask a question about your documents",
    "home.recent": "Recent conversations",
    "home.no_threads": "No conversations yet.",
    "col.name": "Document",
    "col.kind": "Kind",
    "col.periods": "Periods covered",
    "col.pages": "Pages",
    "col.sections": "Sections",
    "col.indexed": "Indexed at",
    "col.collection": "Collection",
    # Chat and evidence
    "chat.title": "Chat",
    "chat.prompt": "Ask a question about your documents",
    "chat.try": "Try this question:",
    "chat.no_documents": "No documents yet: add one, or try the sample, on the Library page.",
    "evidence.title": "Evidence",
    "evidence.empty": "Click a citation such as [S1, p. 2] in an answer, or a source under it: "
    "the cited page opens here with the passage highlighted.",
    "evidence.whole_page": "Whole page",
    "evidence.passage": "The passage the answer quoted",
    "evidence.open_tree": "Open in tree",
    # Upload status
    "upload.done": "{name}: done",
    "upload.failed": "{name}: failed — {reason}",
    # Settings
    "settings.language": "Language of the app",
    "settings.language_auto": "As the browser (now: {name})",
}

DE: dict[str, str] = {
    "note.offline": "(Extraktive Antwort der Offline-Engine: Die Zeilen oben sind aus den "
    "Tabellen und Sätzen des Dokuments kopiert, die am besten zur Frage passen; sie sind keine "
    "generierte Antwort.)",
    "note.no_match": "Die Offline-Engine hat in den gewählten Abschnitten keine Tabellenzeile und "
    "keinen Satz gefunden, der zur Frage passt; das Dokument enthält die Antwort vielleicht nicht.",
    "nav.library": "Bibliothek",
    "nav.upload": "Hochladen & indexieren",
    "nav.tree": "Baumansicht",
    "nav.chat": "Chat",
    "nav.registry": "Register",
    "nav.evaluate": "Auswerten",
    "nav.sources": "Quellen",
    "nav.settings": "Einstellungen",
    "nav.access": "Zugriff",
    "sidebar.engine": "Engine: {engine}",
    "sidebar.engine_bad": "Engine: nicht eingerichtet ({reason})",
    "engine.offline": "Offline-Engine (kein Modell)",
    "error.unexpected": "Etwas Unerwartetes ist schiefgegangen ({kind}). Nichts Gespeichertes "
    "wurde geändert; die Einzelheiten stehen im Protokoll des Servers.",
    "sidebar.local_user": "Angemeldet: nur Sie (lokal, ohne Anmeldung)",
    "home.title": "Bibliothek",
    "home.welcome": "treerag beantwortet Fragen aus Ihren Dokumenten und zeigt, woher jede "
    "Antwort stammt.\n\n"
    "1. **Dokument hinzufügen**: PDF, Word-Datei, Foliensatz, Tabelle, E-Mail oder Webseite. Es "
    "wird in seine eigenen Abschnitte zerlegt, jeder erhält eine Zusammenfassung.\n"
    "2. **Eine Frage stellen**, in eigenen Worten, an ein Dokument oder die ganze Bibliothek.\n"
    "3. **Die Antwort prüfen**: Jede Quellenangabe öffnet die zitierte Seite mit der "
    "markierten Stelle.",
    "home.sample": "Mit einem Beispiel ausprobieren",
    "home.sample_help": "Ein fünfseitiges Mitarbeiterhandbuch, das treerag mitbringt, "
    "indexieren (offline, ohne Netz) und den Chat mit einer Frage dazu öffnen",
    "home.sample_indexing": "Das Beispielhandbuch wird indexiert…",
    "home.add_own": "Eigene Dokumente hinzufügen",
    "home.add": "Dokumente hinzufügen",
    "home.add_help": "Dateien hochladen oder eine Webseite über ihre URL indexieren",
    "home.sync": "Ordner synchronisieren",
    "home.search": "Bibliothek durchsuchen",
    "home.search_placeholder": "Ein Name, eine Art, ein Jahr, eine Firma…",
    "home.search_help": "Sucht im Namen und in der Karte jedes Dokuments (Art, Zeiträume, "
    "Namen, Beschreibung)",
    "home.no_match": "Kein Dokument passt zu „{query}“.",
    "home.count": "{count} Dokument(e). Wählen Sie eine Zeile, um es zu öffnen.",
    "home.open_tree": "In der Baumansicht öffnen",
    "home.ask_about": "Dazu fragen",
    "home.ask": "Die ganze Bibliothek fragen",
    "home.ask_button": "Fragen",
    "home.ask_placeholder": "Stellen Sie eine Frage zu Ihren Dokumenten",
    "home.recent": "Letzte Unterhaltungen",
    "home.no_threads": "Noch keine Unterhaltungen.",
    "col.name": "Dokument",
    "col.kind": "Art",
    "col.periods": "Zeiträume",
    "col.pages": "Seiten",
    "col.sections": "Abschnitte",
    "col.indexed": "Indexiert am",
    "col.collection": "Sammlung",
    "chat.title": "Chat",
    "chat.prompt": "Stellen Sie eine Frage zu Ihren Dokumenten",
    "chat.try": "Probieren Sie diese Frage:",
    "chat.no_documents": "Noch keine Dokumente: Fügen Sie eines hinzu oder probieren Sie das "
    "Beispiel, auf der Seite Bibliothek.",
    "evidence.title": "Belege",
    "evidence.empty": "Klicken Sie auf eine Quellenangabe wie [S1, S. 2] in einer Antwort oder "
    "auf eine Quelle darunter: Die zitierte Seite öffnet sich hier mit der markierten Stelle.",
    "evidence.whole_page": "Ganze Seite",
    "evidence.passage": "Die Stelle, die die Antwort zitiert",
    "evidence.open_tree": "In der Baumansicht öffnen",
    "upload.done": "{name}: fertig",
    "upload.failed": "{name}: fehlgeschlagen — {reason}",
    "settings.language": "Sprache der App",
    "settings.language_auto": "Wie der Browser (jetzt: {name})",
}

for _part in PARTS:  # each page's words, kept beside their translation
    EN.update(_part.EN)
    DE.update(_part.DE)

CATALOGUE: dict[str, dict[str, str]] = {"en": EN, "de": DE}
LANGUAGE_LABELS = {"en": "English", "de": "Deutsch"}


def language_of(tag: str | None) -> str:
    """A catalogue language for a language tag (``de-AT`` → ``de``); English otherwise."""
    code = str(tag or "").replace("_", "-").split("-")[0].lower()
    return code if code in CATALOGUE else DEFAULT_LANGUAGE


class Said(str):
    """English text that can be said again in another language (:class:`Phrase`,
    :class:`Joined`): it reads as plain English to the library's callers and is said in
    the answer's language where it is shown."""

    def said_in(self, language: str | None) -> str:
        """This text in ``language``."""
        raise NotImplementedError

    def __reduce__(self) -> tuple[object, ...]:  # pickled (a job's error) as English text
        return (str, (str(self),))


class Phrase(Said):
    """A catalogue message as English text that remembers its key and values, so a reason
    built low down (an address the network guard refuses, why a reply was set aside) reads
    as plain English to the library's callers and in the person's language once it is
    placed inside another message (:func:`message` says it again in that language)."""

    key: str
    values: dict[str, object]
    trim: str | None = ""  # characters stripped from its end wherever it is said

    def __new__(cls, key: str, /, **values: object) -> Phrase:
        phrase = super().__new__(cls, message(key, None, **values))
        phrase.key, phrase.values = key, values
        return phrase

    def said_in(self, language: str | None) -> str:
        """This phrase in ``language``."""
        text = message(self.key, language, **self.values)
        return text if self.trim == "" else text.rstrip(self.trim)


def trimmed(text: str, chars: str | None = None) -> str:
    """``text.rstrip(chars)`` that stays a :class:`Phrase` when it is one (a refusal that
    ends in a full stop, placed before the full stop of the note around it)."""
    if not isinstance(text, Phrase):
        return text.rstrip(chars)
    phrase = str.__new__(Phrase, str(text).rstrip(chars))
    phrase.key, phrase.values, phrase.trim = text.key, text.values, chars
    return phrase


class Joined(Said):
    """Texts (phrases or plain text) joined by ``sep``, said again part by part: a trace's
    "offline BM25 ranking; 2 section(s) of the previous answer read again"."""

    parts: tuple[str, ...]
    sep: str

    def __new__(cls, parts: Iterable[str], sep: str = "; ") -> Joined:
        kept = tuple(parts)
        joined = super().__new__(cls, sep.join(kept))
        joined.parts, joined.sep = kept, sep
        return joined

    def said_in(self, language: str | None) -> str:
        """Each part in ``language``, joined."""
        return self.sep.join(said_in(part, language) for part in self.parts)


def said_in(text: str, language: str | None) -> str:
    """``text`` in ``language`` when it can be said again (:class:`Said`); other text as
    it is."""
    return text.said_in(language) if isinstance(text, Said) else text


def message(key: str, language: str | None = None, **values: object) -> str:
    """The message ``key`` in ``language`` (a tag or code), with ``values`` filled in (a
    :class:`Phrase` among them is said in the same language)."""
    text = CATALOGUE[language_of(language)].get(key) or EN[key]
    if not values:
        return text
    said = {k: v.said_in(language) if isinstance(v, Said) else v for k, v in values.items()}
    return text.format(**said)


def in_every_language(key: str) -> Iterable[str]:
    """Every language's wording of ``key`` (to recognise a note whatever its language)."""
    return [catalogue[key] for catalogue in CATALOGUE.values() if key in catalogue]


def raised(error: type[E], key: str, /, **values: object) -> E:
    """An error of type ``error`` worded by ``key`` in English (what ``str(exc)`` says to
    the library's callers), carrying the key and ``values`` for the app to say it in the
    person's language."""
    return error(message(key, None, **values), key=key, values=values)
