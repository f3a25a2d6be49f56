"""The Upload page's words: the form, each file's status and its result card."""

from __future__ import annotations

EN: dict[str, str] = {
    "upload.title": "Upload & index",
    "upload.files": "Documents (scans and images are read by OCR; e-mail attachments are read too)",
    "upload.url": "…or a web page URL",
    "upload.preset": "Domain prompt",
    "upload.custom": "Custom summary prompt",
    "upload.when_indexed": "When a document is already indexed",
    "upload.mode_changed": "Re-index only if the file changed",
    "upload.mode_overwrite": "Re-index anyway (overwrite)",
    "upload.separate": "Keep a same-named file as a separate document",
    "upload.separate_help": "Keep it as a separate document if a file with the same name was "
    "uploaded before (otherwise it replaces that one)",
    "upload.collection": "Collection",
    "upload.no_collection": "You are not an editor of any collection: ask an admin to make you "
    "one.",
    "upload.summaries_by": "Summaries by: {engine}",
    "upload.prompts_for_models": "The offline engine extracts summaries and tags itself; "
    "prompts apply to models.",
    "upload.queue": "Queue for the indexing workers (progress below, on every replica)",
    "upload.index": "Index",
    "upload.indexing": "Indexing {name}",
    "upload.starting": "Starting",
    "upload.unchanged": "Unchanged since it was last indexed: the stored index was kept.",
    "upload.sections": "Sections",
    "upload.pages": "Pages",
    "upload.llm_calls": "LLM calls",
    "upload.tokens": "Tokens",
    "upload.seconds": "Seconds",
    "upload.reused": "Summaries reused",
    "upload.engine": "Engine: {engine}",
    "upload.structure": " · structure from {source}",
    "upload.ocr": " · {count} page(s) read by OCR",
    "upload.open_tree": "Open in tree",
    "upload.ask": "Ask about it",
}

DE: dict[str, str] = {
    "upload.title": "Hochladen & indexieren",
    "upload.files": "Dokumente (Scans und Bilder werden per OCR gelesen, E-Mail-Anhänge auch)",
    "upload.url": "…oder die URL einer Webseite",
    "upload.preset": "Fachgebiet des Prompts",
    "upload.custom": "Eigener Prompt für Zusammenfassungen",
    "upload.when_indexed": "Wenn ein Dokument schon indexiert ist",
    "upload.mode_changed": "Nur neu indexieren, wenn sich die Datei geändert hat",
    "upload.mode_overwrite": "Trotzdem neu indexieren (überschreiben)",
    "upload.separate": "Gleichnamige Datei als eigenes Dokument behalten",
    "upload.separate_help": "Als eigenes Dokument behalten, wenn schon eine Datei mit diesem "
    "Namen hochgeladen wurde (sonst ersetzt sie jene)",
    "upload.collection": "Sammlung",
    "upload.no_collection": "Sie bearbeiten keine Sammlung: Bitten Sie die Administration, Sie "
    "dazu zu berechtigen.",
    "upload.summaries_by": "Zusammenfassungen von: {engine}",
    "upload.prompts_for_models": "Die Offline-Engine entnimmt Zusammenfassungen und "
    "Schlagwörter selbst; Prompts gelten für Modelle.",
    "upload.queue": "An die Indexierungs-Worker geben (Fortschritt unten, auf jeder Instanz)",
    "upload.index": "Indexieren",
    "upload.indexing": "{name} wird indexiert",
    "upload.starting": "Beginnt",
    "upload.unchanged": "Seit der letzten Indexierung unverändert: Der gespeicherte Index bleibt.",
    "upload.sections": "Abschnitte",
    "upload.pages": "Seiten",
    "upload.llm_calls": "LLM-Aufrufe",
    "upload.tokens": "Tokens",
    "upload.seconds": "Sekunden",
    "upload.reused": "Wiederverwendete Zusammenfassungen",
    "upload.engine": "Engine: {engine}",
    "upload.structure": " · Struktur aus {source}",
    "upload.ocr": " · {count} Seite(n) per OCR gelesen",
    "upload.open_tree": "In der Baumansicht öffnen",
    "upload.ask": "Dazu fragen",
}
