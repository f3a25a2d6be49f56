"""Refusals met while asking and running, by key: a formula the offline engine cannot
compute, a model that fails or is not set up, a conversation history sent by a caller, a
library without its index, an evaluation question without its document, indexing jobs,
corrections to a card, a migration and a setting's wrong value. Raised in English
(``str(exc)``); the app says them in the person's language."""

from __future__ import annotations

EN: dict[str, str] = {
    # A formula (computed answers)
    "error.formula_not_cell": "“{phrase}” is not one of the cells the model named",
    "error.formula_undefined": "“{name}” is not defined.",
    "error.formula_unreadable": "Could not read the formula “{text}”.",
    "error.formula_parenthesis": "A parenthesis in the formula is not closed.",
    "error.formula_expected": "Expected a quantity in the formula, found “{found}”.",
    "error.formula_its_end": "its end",
    # Models: set up, budgets, replies
    "error.openai_key": "OpenAI needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local server).",
    "error.provider_no_model": "Provider {provider} has no chat model.",
    "error.budget_positive": "The {kind} budget must be more than 0 (tokens and seconds).",
    "error.model_empty_reply": "The {what} model ({model}) returned an empty reply.",
    "error.stream_no_end": "The {what} model ({model}) stream ended without its end marker: "
    "the answer was cut off.",
    "error.stream_past_limit": "The {what} model ({model}) kept streaming past {limit}: the "
    "answer was cut off.",
    "error.limit_chars": "{count} characters",
    # A conversation's history given by a caller, a library without its index
    "error.history_too_long": "history has {count} turns; at most {limit} are accepted.",
    "error.history_no_question": "history turn {number} has no 'question'.",
    "error.history_references": "history turn {number}: 'references' must be a list.",
    "error.no_library_index": "{where} keeps no library index: name the documents to ask.",
    # Evaluation, indexing jobs, cards, migration, settings
    "error.question_no_document": "Question {id} names no document.",
    "error.not_stored_nor_file": "{ref} is neither in {where} nor a readable file.",
    "error.no_job": "There is no indexing job {id} that you may see.",
    "error.jobs_need_postgres": "Indexing workers need a PostgreSQL registry "
    "(TREERAG_REGISTRY=postgresql://…); {where} is indexed by the process that receives each "
    "document.",
    "error.upload_gone": "The job's upload is gone (it was finished or failed before).",
    "error.card_fields": "Only {fields} can be corrected, not {unknown}.",
    "error.card_language": "Unknown language {value}: give an ISO 639-1 code such as en, de, "
    "fr, ja or zh.",
    "error.migrate_same": "The source and the target of a migration are the same registry.",
    "error.setting_invalid": "{name}: {problem}.",
}

DE: dict[str, str] = {
    "error.formula_not_cell": "„{phrase}“ ist keine der Zellen, die das Modell genannt hat",
    "error.formula_undefined": "„{name}“ ist nicht definiert.",
    "error.formula_unreadable": "Die Formel „{text}“ konnte nicht gelesen werden.",
    "error.formula_parenthesis": "Eine Klammer in der Formel wird nicht geschlossen.",
    "error.formula_expected": "In der Formel wurde eine Größe erwartet, gefunden wurde „{found}“.",
    "error.formula_its_end": "das Formelende",
    "error.openai_key": "OpenAI braucht OPENAI_API_KEY (oder OPENAI_BASE_URL für einen "
    "lokalen Server).",
    "error.provider_no_model": "Der Anbieter {provider} hat kein Chatmodell.",
    "error.budget_positive": "Das Budget für „{kind}“ muss größer als 0 sein (Tokens und "
    "Sekunden).",
    "error.model_empty_reply": "Das Modell ({model}) für den Schritt „{what}“ hat eine leere "
    "Antwort geliefert.",
    "error.stream_no_end": "Der Datenstrom des Modells ({model}) für den Schritt „{what}“ "
    "endete ohne Endmarkierung: Die Antwort wurde abgeschnitten.",
    "error.stream_past_limit": "Das Modell ({model}) für den Schritt „{what}“ hat über "
    "{limit} hinaus gestreamt: Die Antwort wurde abgeschnitten.",
    "error.limit_chars": "{count} Zeichen",
    "error.history_too_long": "Der Verlauf hat {count} Runden; höchstens {limit} werden "
    "angenommen.",
    "error.history_no_question": "Runde {number} des Verlaufs hat keine 'question'.",
    "error.history_references": "Runde {number} des Verlaufs: 'references' muss eine Liste sein.",
    "error.no_library_index": "{where} führt keinen Bibliotheksindex: Nennen Sie die "
    "Dokumente, die befragt werden sollen.",
    "error.question_no_document": "Frage {id} nennt kein Dokument.",
    "error.not_stored_nor_file": "{ref} ist weder in {where} noch eine lesbare Datei.",
    "error.no_job": "Es gibt keinen Indexierungsauftrag {id}, den Sie sehen dürfen.",
    "error.jobs_need_postgres": "Indexierungs-Worker brauchen ein PostgreSQL-Register "
    "(TREERAG_REGISTRY=postgresql://…); {where} wird von dem Prozess indexiert, der das "
    "jeweilige Dokument empfängt.",
    "error.upload_gone": "Die hochgeladene Datei des Auftrags ist nicht mehr vorhanden (der "
    "Auftrag wurde bereits abgeschlossen oder ist zuvor fehlgeschlagen).",
    "error.card_fields": "Nur {fields} können korrigiert werden, nicht {unknown}.",
    "error.card_language": "Unbekannte Sprache {value}: Geben Sie einen ISO-639-1-Code an, "
    "etwa en, de, fr, ja oder zh.",
    "error.migrate_same": "Quelle und Ziel einer Migration sind dasselbe Register.",
    "error.setting_invalid": "Der Wert von {name} ist ungültig: {problem}.",
}
