"""The agent tools' refusals, by key: an argument a tool cannot use (a page past the last,
an empty query, a section or document the caller cannot read), and the MCP server's token
file and exposure checks. The tools raise them in English (``str(exc)``, what a model or
an MCP client reads); the app and the command line may say them in the person's
language."""

from __future__ import annotations

EN: dict[str, str] = {
    # A tool's argument
    "error.tool_page_past": "page {page} is past the last page ({last}).",
    "error.tool_query_empty": "The query is empty: say what to look for.",
    "error.tool_offset_past": "offset {offset} is past the end of the section ({chars} "
    "characters).",
    "error.tool_no_document": "There is no document {id} that you may read: call "
    "list_documents for the ids.",
    "error.tool_no_section": "Document {id} has no section {node}: browse it or search it for "
    "node ids.",
    # The MCP server's tokens and the addresses it listens on
    "error.mcp_tokens_empty": "The MCP token list is empty: add a token or set TREERAG_MCP_TOKEN.",
    "error.mcp_file_not_json": "The MCP token file is not JSON: {reason} (line {line}).",
    "error.mcp_file_no_list": 'The MCP token file needs a "tokens" list.',
    "error.mcp_file_unreadable": "Cannot read the MCP token file {path}: {reason}.",
    "error.mcp_entry": "MCP token file entry {number}",
    "error.mcp_entry_user": "MCP token file entry {number} needs a user.",
    "error.mcp_entry_groups": "MCP token file entry {number}: groups must be a list of names.",
    "error.mcp_entry_sha256": "MCP token file entry {number}: sha256 must be 64 hex digits.",
    "error.mcp_same_token": "The MCP token file gives the same token to two entries.",
    "error.mcp_short_token": "{where}: a token needs at least {count} characters and no "
    "spaces (for example: python -c 'import secrets; print(secrets.token_urlsafe(32))').",
    "error.mcp_every_address": "every address",
    "error.mcp_no_token": "Refusing to serve MCP on {host} without a bearer token: set {env} "
    "or pass --token-file (or listen on 127.0.0.1).",
    "error.mcp_allowed_host": "Listening on every address ({name}): name the host clients use "
    "with --allowed-host (e.g. mcp.example.com or mcp.example.com:8765).",
}

DE: dict[str, str] = {
    "error.tool_page_past": "Seite {page} liegt hinter der letzten Seite ({last}).",
    "error.tool_query_empty": "Die Suchanfrage ist leer: Sagen Sie, wonach gesucht werden soll.",
    "error.tool_offset_past": "Der Versatz {offset} liegt hinter dem Ende des Abschnitts "
    "({chars} Zeichen).",
    "error.tool_no_document": "Es gibt kein Dokument {id}, das Sie lesen dürfen: Rufen Sie "
    "list_documents auf, um die IDs zu erhalten.",
    "error.tool_no_section": "Dokument {id} hat keinen Abschnitt {node}: Blättern Sie darin "
    "oder durchsuchen Sie es nach Knoten-IDs.",
    "error.mcp_tokens_empty": "Die MCP-Token-Liste ist leer: Fügen Sie ein Token hinzu oder "
    "setzen Sie TREERAG_MCP_TOKEN.",
    "error.mcp_file_not_json": "Die MCP-Token-Datei ist kein JSON: {reason} (Zeile {line}).",
    "error.mcp_file_no_list": 'Die MCP-Token-Datei braucht eine Liste "tokens".',
    "error.mcp_file_unreadable": "Die MCP-Token-Datei {path} kann nicht gelesen werden: {reason}.",
    "error.mcp_entry": "Eintrag {number} der MCP-Token-Datei",
    "error.mcp_entry_user": "Eintrag {number} der MCP-Token-Datei braucht einen Benutzer.",
    "error.mcp_entry_groups": "Eintrag {number} der MCP-Token-Datei: groups muss eine Liste "
    "von Namen sein.",
    "error.mcp_entry_sha256": "Eintrag {number} der MCP-Token-Datei: sha256 muss aus 64 "
    "Hexadezimalziffern bestehen.",
    "error.mcp_same_token": "Die MCP-Token-Datei gibt zwei Einträgen dasselbe Token.",
    "error.mcp_short_token": "{where}: Ein Token braucht mindestens {count} Zeichen und keine "
    "Leerzeichen (zum Beispiel: python -c 'import secrets; "
    "print(secrets.token_urlsafe(32))').",
    "error.mcp_every_address": "allen Adressen",
    "error.mcp_no_token": "MCP wird auf {host} nicht ohne Bearer-Token bereitgestellt: Setzen "
    "Sie {env} oder übergeben Sie --token-file (oder lauschen Sie nur auf 127.0.0.1).",
    "error.mcp_allowed_host": "Lauschen auf allen Adressen ({name}): Nennen Sie mit "
    "--allowed-host den Hostnamen, den die Clients verwenden (z. B. mcp.example.com oder "
    "mcp.example.com:8765).",
}
