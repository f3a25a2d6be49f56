"""The store's refusals, by key: a registry, library index, audit log or stored file that
cannot be read or written, an id that cannot name a stored file, and what is wrong with a
document in a file offered for import. The store sits below the text layer, so it writes
the English itself (``str(exc)``) and passes the key and values; the app says them in the
person's language."""

from __future__ import annotations

EN: dict[str, str] = {
    # The registry, its library index and audit log, the files it keeps
    "error.registry_unreadable": "Cannot read the registry {path}: {reason}",
    "error.registry_not_tinydb": "The registry {path} does not hold a TinyDB database.",
    "error.registry_db_newer": "The registry database {url} was written by a newer treerag "
    "(schema {version}; this one knows {known}): upgrade treerag to open it.",
    "error.needs_psycopg": "A PostgreSQL registry needs psycopg ({reason}): pip install -r "
    "requirements.txt.",
    "error.library_index_open": "Cannot open the library index {path}: {reason}",
    "error.library_index_failed": "The library index {path} failed: {reason}",
    "error.audit_log_write": "Cannot write the audit log {path}: {reason}",
    "error.stored_document_unreadable": "The stored document {id} is unreadable: {reason}",
    "error.stored_thread_file_unreadable": "The stored conversation file {path} is "
    "unreadable: {reason}",
    "error.stored_thread_unreadable": "The stored conversation {id} in {where} is unreadable: "
    "a {kind} where a thread object belongs.",
    "error.stored_source_unreadable": "The stored source {path} is unreadable: {reason}",
    # An id or name that cannot name a stored file
    "error.invalid_document_id": "{id} is not a valid document id.",
    "error.invalid_thread_id": "{id} is not a valid conversation id.",
    "error.invalid_source_id": "{id} is not a valid source id.",
    "error.not_source_id": "{id} is not a source id.",
    "error.not_collection_name": "{name} is not a collection name.",
    # A document in a file offered for import
    "error.import_not_object": "Document {index} is not a JSON object.",
    "error.import_no_doc_id": "Document {index} has no valid doc_id.",
    "error.import_no_field": "Document {index} ({name}) has no {field}.",
    "error.import_no_sections": "Document {index} ({name}) has no sections (flat_nodes).",
    "error.import_section_order": "Document {index} ({name}): section {node} comes before "
    "its parent.",
    "error.import_section_malformed": "Document {index} ({name}): section {node} is malformed.",
    "error.import_section_text": "Document {index} ({name}): section {node} has no title or text.",
    "error.import_section_field": "Document {index} ({name}): section {node} has an invalid "
    "{field}.",
    "error.import_section_parent": "Document {index} ({name}): section {node} points at a "
    "missing parent.",
    "error.import_section_child": "Document {index} ({name}): section {node} lists a missing "
    "child.",
    "error.import_section_tags": "Document {index} ({name}): section {node} has invalid tags.",
}

DE: dict[str, str] = {
    "error.registry_unreadable": "Das Register {path} kann nicht gelesen werden: {reason}",
    "error.registry_not_tinydb": "Das Register {path} enthält keine TinyDB-Datenbank.",
    "error.registry_db_newer": "Die Register-Datenbank {url} wurde von einem neueren treerag "
    "geschrieben (Schema {version}; dieses kennt {known}): Aktualisieren Sie treerag, um sie "
    "zu öffnen.",
    "error.needs_psycopg": "Ein PostgreSQL-Register braucht psycopg ({reason}): pip install -r "
    "requirements.txt.",
    "error.library_index_open": "Der Bibliotheksindex {path} kann nicht geöffnet werden: {reason}",
    "error.library_index_failed": "Der Bibliotheksindex {path} ist fehlgeschlagen: {reason}",
    "error.audit_log_write": "Das Protokoll {path} kann nicht geschrieben werden: {reason}",
    "error.stored_document_unreadable": "Das gespeicherte Dokument {id} ist nicht lesbar: {reason}",
    "error.stored_thread_file_unreadable": "Die gespeicherte Unterhaltungsdatei {path} ist "
    "nicht lesbar: {reason}",
    "error.stored_thread_unreadable": "Die gespeicherte Unterhaltung {id} in {where} ist nicht "
    "lesbar: ein {kind}, wo ein Unterhaltungsobjekt hingehört.",
    "error.stored_source_unreadable": "Die gespeicherte Quelle {path} ist nicht lesbar: {reason}",
    "error.invalid_document_id": "{id} ist keine gültige Dokument-ID.",
    "error.invalid_thread_id": "{id} ist keine gültige Unterhaltungs-ID.",
    "error.invalid_source_id": "{id} ist keine gültige Quellen-ID.",
    "error.not_source_id": "{id} ist keine Quellen-ID.",
    "error.not_collection_name": "{name} ist kein Sammlungsname.",
    "error.import_not_object": "Dokument {index} ist kein JSON-Objekt.",
    "error.import_no_doc_id": "Dokument {index} hat keine gültige doc_id.",
    "error.import_no_field": "Dokument {index} ({name}) hat kein Feld {field}.",
    "error.import_no_sections": "Dokument {index} ({name}) hat keine Abschnitte (flat_nodes).",
    "error.import_section_order": "Dokument {index} ({name}): Abschnitt {node} steht vor "
    "seinem übergeordneten Abschnitt.",
    "error.import_section_malformed": "Dokument {index} ({name}): Abschnitt {node} ist "
    "fehlerhaft aufgebaut.",
    "error.import_section_text": "Dokument {index} ({name}): Abschnitt {node} hat weder Titel "
    "noch Text.",
    "error.import_section_field": "Dokument {index} ({name}): Abschnitt {node} hat einen "
    "ungültigen Wert für {field}.",
    "error.import_section_parent": "Dokument {index} ({name}): Abschnitt {node} verweist auf "
    "einen fehlenden übergeordneten Abschnitt.",
    "error.import_section_child": "Dokument {index} ({name}): Abschnitt {node} nennt einen "
    "fehlenden Unterabschnitt.",
    "error.import_section_tags": "Dokument {index} ({name}): Abschnitt {node} hat ungültige Tags.",
}
