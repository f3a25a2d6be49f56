"""The Access page's words (admins): collections with their readers and editors, the audit
log; and who is signed in (the sidebar, the sign-in and refusal pages, a document one may
not read)."""

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
    # Who is signed in (the sidebar, the sign-in and refusal pages)
    "who.refused_title": "Access refused",
    "who.refused": "{reason} Open treerag through your organisation's sign-in address, not the "
    "server directly.",
    "who.sign_in_text": "Sign in with your organisation's account to see your team's documents.",
    "who.sign_in": "Sign in",
    "who.sign_out": "Sign out",
    "who.signed_in": "Signed in as **{user}**",
    "who.signed_in_admin": "Signed in as **{user}** (admin)",
    "who.collections": "Collections — {roles}",
    "who.role.reader": "reader",
    "who.role.editor": "editor",
    "who.no_collection": "You have no collection yet: ask an admin for access.",
    "who.no_document": "There is no document {doc_id} that you may read.",
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
    "who.refused_title": "Zugriff verweigert",
    "who.refused": "{reason} Öffnen Sie treerag über die Anmeldeadresse Ihrer Organisation, "
    "nicht direkt über den Server.",
    "who.sign_in_text": "Melden Sie sich mit dem Konto Ihrer Organisation an, um die Dokumente "
    "Ihres Teams zu sehen.",
    "who.sign_in": "Anmelden",
    "who.sign_out": "Abmelden",
    "who.signed_in": "Angemeldet als **{user}**",
    "who.signed_in_admin": "Angemeldet als **{user}** (Administration)",
    "who.collections": "Sammlungen — {roles}",
    "who.role.reader": "lesend",
    "who.role.editor": "bearbeitend",
    "who.no_collection": "Sie haben noch keine Sammlung: Bitten Sie die Administration um Zugriff.",
    "who.no_document": "Es gibt kein Dokument {doc_id}, das Sie lesen dürfen.",
}
