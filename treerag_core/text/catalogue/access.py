"""The Access page's words (admins): collections with their readers and editors, the audit
log."""

from __future__ import annotations

EN: dict[str, str] = {
    "access.title": "Access",
    "access.collections": "Collections",
    "access.col.collection": "Collection",
    "access.col.documents": "Documents",
    "access.col.readers": "Readers",
    "access.col.editors": "Editors",
    "access.pick": "Collection to change",
    "access.new": "New collection…",
    "access.name": "Name",
    "access.readers": "Readers",
    "access.editors": "Editors",
    "access.members_help": "User names (e-mail addresses) or group names, separated by commas; "
    "{everyone} means everyone who is signed in. Editors also read.",
    "access.save": "Save access",
    "access.saved": "Saved the access of {collection}.",
    "access.audit": "Audit log",
    "access.audit_count": "{count} entries, newest first (append-only: nothing here is ever "
    "rewritten).",
    "access.audit_download": "Download the audit log (JSON lines)",
}

DE: dict[str, str] = {
    "access.title": "Zugriff",
    "access.collections": "Sammlungen",
    "access.col.collection": "Sammlung",
    "access.col.documents": "Dokumente",
    "access.col.readers": "Lesende",
    "access.col.editors": "Bearbeitende",
    "access.pick": "Zu ändernde Sammlung",
    "access.new": "Neue Sammlung…",
    "access.name": "Name",
    "access.readers": "Lesende",
    "access.editors": "Bearbeitende",
    "access.members_help": "Benutzernamen (E-Mail-Adressen) oder Gruppennamen, durch Kommas "
    "getrennt; {everyone} heißt: alle Angemeldeten. Bearbeitende dürfen auch lesen.",
    "access.save": "Zugriff speichern",
    "access.saved": "Der Zugriff auf {collection} ist gespeichert.",
    "access.audit": "Protokoll",
    "access.audit_count": "{count} Einträge, neueste zuerst (nur angehängt: Hier wird nie etwas "
    "umgeschrieben).",
    "access.audit_download": "Das Protokoll herunterladen (JSON Lines)",
}
