"""Export indexed documents as one JSON file and import such a file back, validated.

An import writes into the registry that every later question reads, so a file that is not
what we exported (truncated, hand-edited, another program's JSON, a hostile upload) is
refused with a message naming the problem instead of being stored half-valid.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from ..errors import InvalidImportError
from ..types import Document
from .base import DOC_ID

EXPORT_FORMAT = "treerag-export"
EXPORT_VERSION = 1
MAX_IMPORT_BYTES = 200 * 1024 * 1024

# Never part of an export: derived on load, or not the document's business.
_DROPPED = ("tree", "tree_outline", "api_key", "openai_api_key")


def export_documents(documents: list[Document]) -> bytes:
    """One JSON file holding ``documents`` (one or all), readable by :func:`parse_import`."""
    payload = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_at": datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC"),
        "documents": [{k: v for k, v in d.items() if k not in _DROPPED} for d in documents],
    }
    return json.dumps(payload, ensure_ascii=False, indent=1).encode("utf-8")


def parse_import(data: bytes, max_bytes: int = MAX_IMPORT_BYTES) -> list[Document]:
    """Validated documents from an export file; raises :class:`InvalidImportError`.

    Accepts our export wrapper or a single bare document dict (a registry document file).
    """
    if len(data) > max_bytes:
        raise InvalidImportError(  # worded as the catalogue's key (store: no text layer)
            f"The file is {len(data) / 1e6:.1f} MB, over the import limit of "
            f"{max_bytes / 1e6:.0f} MB.",
            key="error.import_too_large",
            values={"size": f"{len(data) / 1e6:.1f}", "limit": f"{max_bytes / 1e6:.0f}"},
        )
    try:
        payload = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise InvalidImportError(
            f"The file is not valid JSON: {exc}",
            key="error.import_not_json",
            values={"reason": str(exc)},
        ) from None
    documents: Any  # a JSON value until checked below
    if isinstance(payload, dict) and "flat_nodes" in payload:
        documents = [payload]
    elif isinstance(payload, dict) and payload.get("format") == EXPORT_FORMAT:
        if not isinstance(payload.get("version"), int) or payload["version"] > EXPORT_VERSION:
            raise InvalidImportError(
                f"This export has version {payload.get('version')!r}; this treerag reads "
                f"version {EXPORT_VERSION} or older.",
                key="error.import_version",
                values={"version": repr(payload.get("version")), "known": EXPORT_VERSION},
            )
        documents = payload.get("documents")
        if not isinstance(documents, list) or not documents:
            raise InvalidImportError("The export holds no documents.", key="error.import_empty")
    else:
        raise InvalidImportError(
            "This is not a treerag export: expected a file made by 'Export' in the registry.",
            key="error.import_not_export",
        )
    return [_validated(doc, i) for i, doc in enumerate(documents, 1)]


def _validated(doc: Any, index: int) -> Document:
    """One document checked for the fields and the tree shape the app relies on."""
    where = f"Document {index}"
    if not isinstance(doc, dict):
        raise InvalidImportError(f"{where} is not a JSON object.")
    doc_id = doc.get("doc_id")
    if not isinstance(doc_id, str) or not DOC_ID.match(doc_id):
        raise InvalidImportError(f"{where} has no valid doc_id.")
    where = f"Document {index} ({str(doc.get('file_name'))[:80]})"
    for key in ("file_name", "file_path"):
        if not isinstance(doc.get(key), str) or not doc[key].strip():
            raise InvalidImportError(f"{where} has no {key}.")
    flat = doc.get("flat_nodes")
    if not isinstance(flat, dict) or not flat:
        raise InvalidImportError(f"{where} has no sections (flat_nodes).")
    seen: set[str] = set()
    for node_id, node in flat.items():
        _check_node(flat, node_id, node, where)
        if node.get("parent_id") is not None and node["parent_id"] not in seen:
            # Sections are stored in document order: a parent always comes first.
            raise InvalidImportError(f"{where}: section {node_id!r} comes before its parent.")
        seen.add(node_id)
    clean = {k: v for k, v in doc.items() if k not in _DROPPED}
    clean["total_sections"] = len(flat)
    return clean  # type: ignore[return-value]


def _check_node(flat: dict[str, Any], node_id: str, node: Any, where: str) -> None:
    if not isinstance(node, dict) or node.get("node_id") != node_id:
        raise InvalidImportError(f"{where}: section {node_id!r} is malformed.")
    if not isinstance(node.get("title"), str) or not isinstance(node.get("text", ""), str):
        raise InvalidImportError(f"{where}: section {node_id!r} has no title or text.")
    if not isinstance(node.get("level"), int) or node["level"] < 1:
        raise InvalidImportError(f"{where}: section {node_id!r} has an invalid level.")
    parent = node.get("parent_id")
    if parent is not None and parent not in flat:
        raise InvalidImportError(f"{where}: section {node_id!r} points at a missing parent.")
    children = node.get("children", [])
    if not isinstance(children, list) or any(c not in flat for c in children):
        raise InvalidImportError(f"{where}: section {node_id!r} lists a missing child.")
    tags = node.get("tags", [])
    if not isinstance(tags, list):
        raise InvalidImportError(f"{where}: section {node_id!r} has invalid tags.")
    for key in ("page_start", "page_end"):
        value = node.get(key)
        if value is not None and not isinstance(value, int):
            raise InvalidImportError(f"{where}: section {node_id!r} has an invalid {key}.")
