"""How an answer's sections were found, as its trace tells the person ("How this answer
was found" under a chat answer, and ``trace`` in an answer's result): the offline
ranking's notes, a search model's fallbacks and the offline check of its choice, in the
answer's language; and the trace table's headers and modes, in the person's."""

from __future__ import annotations

EN: dict[str, str] = {
    # Navigation's notes (``navigate.offline``, ``navigate.model``), in the answer's language
    "nav.offline_ranking": "offline BM25 ranking",
    "nav.no_term": "no term of the question matched; the opening sections were used",
    "nav.line_items": "{count} section(s) whose tables print {printed} read too",
    "nav.carried": "{count} section(s) of the previous answer read again",
    "nav.statements": "the statement the question names read too ({printed})",
    "nav.titles": "the section whose title the question names read too ({printed})",
    "nav.check_foreign": "not made: the question is in another language than the document, "
    "whose words the offline ranking cannot compare",
    "nav.check_added": "none of the {chosen} section(s) the model chose is near the offline "
    "ranking's {picks} best for the question's words: its {added} best are read too",
    "nav.call_failed": "search call failed",
    "nav.call_failed_why": "search call failed ({error})",
    "nav.model_chose_none": "the search model chose no section",
    "nav.model_no_ids": "the search model gave no usable section ids",
    "nav.no_usable_choice": "no usable choice in the reply",
    "nav.used_instead": "{failure}; {how} used instead",
    "nav.used_within": "{why} at step {step}; {how} used within the candidates' sections",
    "nav.nothing_read": "navigation chose nothing to read; {how} used",
    "nav.prefiltered": "{count} candidates prefiltered to {shown} by offline ranking",
    "nav.budget": "navigation budget exhausted ({refused})",
    "nav.max_steps": "max_steps reached",
    "nav.no_sections": "no sections",
    "nav.overview": "a question about the document as a whole: its card and its top-level "
    "parts' summaries, no section searched",
    # The trace table under a chat answer (the person's language)
    "trace.step": "step",
    "trace.mode": "mode",
    "trace.candidates": "candidates",
    "trace.chosen": "chosen",
    "trace.reasons": "reasons",
    "trace.call": "call",
    "trace.calls": "calls",
    "trace.input_tokens": "input tokens",
    "trace.output_tokens": "output tokens",
    "trace.call_search": "search",
    "trace.call_answer": "answer",
    "trace.call_total": "total",
    "trace.mode_offline": "offline",
    "trace.mode_single_pass": "single_pass",
    "trace.mode_levels": "levels",
    "trace.mode_level": "level",
    "trace.mode_offline_check": "offline check",
    "trace.mode_empty": "empty",
    "trace.mode_overview": "overview",
}

DE: dict[str, str] = {
    "nav.offline_ranking": "Offline-Rangfolge (BM25)",
    "nav.no_term": "kein Wort der Frage kam vor; die ersten Abschnitte wurden gelesen",
    "nav.line_items": "{count} Abschnitt(e), deren Tabellen {printed} enthalten, ebenfalls gelesen",
    "nav.carried": "{count} Abschnitt(e) der vorigen Antwort erneut gelesen",
    "nav.statements": "der Abschluss, den die Frage nennt, ebenfalls gelesen ({printed})",
    "nav.titles": "der Abschnitt, dessen Titel die Frage nennt, ebenfalls gelesen ({printed})",
    "nav.check_foreign": "nicht durchgeführt: Die Frage ist in einer anderen Sprache als das "
    "Dokument, und dessen Wörter kann die Offline-Rangfolge nicht mit ihr vergleichen",
    "nav.check_added": "keiner der {chosen} vom Modell gewählten Abschnitte liegt nahe bei den "
    "{picks} besten der Offline-Rangfolge für die Wörter der Frage: deren {added} beste werden "
    "ebenfalls gelesen",
    "nav.call_failed": "Suchaufruf fehlgeschlagen",
    "nav.call_failed_why": "Suchaufruf fehlgeschlagen ({error})",
    "nav.model_chose_none": "das Suchmodell hat keinen Abschnitt gewählt",
    "nav.model_no_ids": "das Suchmodell nannte keine brauchbaren Abschnittskennungen",
    "nav.no_usable_choice": "keine brauchbare Auswahl in der Antwort",
    "nav.used_instead": "{failure}; stattdessen: {how}",
    "nav.used_within": "{why} in Schritt {step}; innerhalb der Abschnitte der Kandidaten "
    "stattdessen: {how}",
    "nav.nothing_read": "die Navigation hat nichts zum Lesen gewählt; stattdessen: {how}",
    "nav.prefiltered": "{count} Kandidaten von der Offline-Rangfolge auf {shown} vorausgewählt",
    "nav.budget": "Budget der Navigation erschöpft ({refused})",
    "nav.max_steps": "Höchstzahl der Schritte (max_steps) erreicht",
    "nav.no_sections": "keine Abschnitte",
    "nav.overview": "eine Frage zum Dokument als Ganzem: seine Karte und die Zusammenfassungen "
    "seiner obersten Teile, kein Abschnitt gesucht",
    "trace.step": "Schritt",
    "trace.mode": "Modus",
    "trace.candidates": "Kandidaten",
    "trace.chosen": "gewählt",
    "trace.reasons": "Begründung",
    "trace.call": "Aufruf",
    "trace.calls": "Aufrufe",
    "trace.input_tokens": "Eingabe-Tokens",
    "trace.output_tokens": "Ausgabe-Tokens",
    "trace.call_search": "Suche",
    "trace.call_answer": "Antwort",
    "trace.call_total": "gesamt",
    "trace.mode_offline": "offline",
    "trace.mode_single_pass": "ein Durchgang",
    "trace.mode_levels": "Ebene für Ebene",
    "trace.mode_level": "Ebene",
    "trace.mode_offline_check": "Offline-Prüfung",
    "trace.mode_empty": "leer",
    "trace.mode_overview": "Überblick",
}
