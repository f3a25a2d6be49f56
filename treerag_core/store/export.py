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
    # worded as the catalogue's keys (store: no text layer)
    if not isinstance(doc, dict):
        raise _refused(
            f"Document {index} is not a JSON object.", "error.import_not_object", index=index
        )
    doc_id = doc.get("doc_id")
    if not isinstance(doc_id, str) or not DOC_ID.match(doc_id):
        raise _refused(
            f"Document {index} has no valid doc_id.", "error.import_no_doc_id", index=index
        )
    doc_values: dict[str, object] = {"index": index, "name": str(doc.get("file_name"))[:80]}
    where = "Document {index} ({name})".format(**doc_values)
    for key in ("file_name", "file_path"):
        if not isinstance(doc.get(key), str) or not doc[key].strip():
            raise _refused(
                f"{where} has no {key}.", "error.import_no_field", **doc_values, field=key
            )
    flat = doc.get("flat_nodes")
    if not isinstance(flat, dict) or not flat:
        raise _refused(
            f"{where} has no sections (flat_nodes).", "error.import_no_sections", **doc_values
        )
    seen: set[str] = set()
    for node_id, node in flat.items():
        values = {**doc_values, "node": repr(node_id)}
        _check_node(flat, node_id, node, f"{where}: section {node_id!r}", values)
        if node.get("parent_id") is not None and node["parent_id"] not in seen:
            # Sections are stored in document order: a parent always comes first.
            raise _refused(
                f"{where}: section {node_id!r} comes before its parent.",
                "error.import_section_order",
                **values,
            )
        seen.add(node_id)
    clean = {k: v for k, v in doc.items() if k not in _DROPPED}
    clean["total_sections"] = len(flat)
    return clean  # type: ignore[return-value]


def _check_node(
    flat: dict[str, Any], node_id: str, node: Any, where: str, values: dict[str, object]
) -> None:
    """One section checked; ``where`` names it in English, ``values`` for the catalogue."""
    if not isinstance(node, dict) or node.get("node_id") != node_id:
        raise _refused(f"{where} is malformed.", "error.import_section_malformed", **values)
    if not isinstance(node.get("title"), str) or not isinstance(node.get("text", ""), str):
        raise _refused(f"{where} has no title or text.", "error.import_section_text", **values)
    if not isinstance(node.get("level"), int) or node["level"] < 1:
        raise _refused(
            f"{where} has an invalid level.", "error.import_section_field", **values, field="level"
        )
    parent = node.get("parent_id")
    if parent is not None and parent not in flat:
        raise _refused(
            f"{where} points at a missing parent.", "error.import_section_parent", **values
        )
    children = node.get("children", [])
    if not isinstance(children, list) or any(c not in flat for c in children):
        raise _refused(f"{where} lists a missing child.", "error.import_section_child", **values)
    tags = node.get("tags", [])
    if not isinstance(tags, list):
        raise _refused(f"{where} has invalid tags.", "error.import_section_tags", **values)
    for key in ("page_start", "page_end"):
        value = node.get(key)
        if value is not None and not isinstance(value, int):
            raise _refused(
                f"{where} has an invalid {key}.", "error.import_section_field", **values, field=key
            )


def _refused(english: str, key: str, /, **values: object) -> InvalidImportError:
    """The import refused with ``english``, worded as the catalogue's ``key``."""
    return InvalidImportError(english, key=key, values=values)
