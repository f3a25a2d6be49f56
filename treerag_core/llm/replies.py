"""Robust parsing of model replies: small and local models rarely return clean JSON.

Summary replies: JSON, fenced JSON, JSON after prose, or plain prose. Search replies: any JSON
object holding a list of ids, a bare list, fenced or after prose, or ids written in prose.
Nothing here raises on a bad reply; callers get ``None`` / an empty list and fall back.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable
from typing import Any

_FENCE = re.compile(r"```[a-zA-Z0-9_-]*\s*\n?(.*?)```", re.S)
_THINK = re.compile(r"<think(?:ing)?>.*?</think(?:ing)?>", re.S | re.I)
ID_KEYS = (
    "node_list",
    "node_ids",
    "ids",
    "nodes",
    "sections",
    "section_ids",
    "relevant_nodes",
    "relevant_sections",
    "results",
    "documents",
)
REASON_KEYS = ("reasoning", "thinking", "reason", "explanation", "rationale", "thought")
_SUMMARY_KEYS = ("summary", "description", "abstract")
_TAG_KEYS = ("tags", "entities", "keywords", "key_terms", "named_entities")


def strip_thinking(text: str) -> str:
    """Drop ``<think>…</think>`` blocks that reasoning models put before their answer."""
    text = _THINK.sub("", text or "")
    if "</think>" in text:  # an opening tag cut off by the server
        text = text.rsplit("</think>", 1)[1]
    return text.strip()


def json_candidates(text: str) -> list[Any]:
    """Every JSON value found in ``text``: fenced blocks first, then the whole, then embedded."""
    text = strip_thinking(text)
    found: list[Any] = []
    chunks = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    decoder = json.JSONDecoder()
    for chunk in chunks:
        chunk = chunk.strip()
        try:
            found.append(json.loads(chunk))
            continue
        except ValueError:
            pass
        pos = 0
        while True:
            starts = [i for i in (chunk.find("{", pos), chunk.find("[", pos)) if i >= 0]
            if not starts:
                break
            start = min(starts)
            try:
                value, end = decoder.raw_decode(chunk, start)
            except ValueError:
                pos = start + 1
                continue
            found.append(value)
            pos = end
    return found


# --- summaries --------------------------------------------------------------------------


def parse_tags(value: Any) -> list[str]:
    """A list, or a string "a, b; c" — never split into letters; de-duplicated, in order."""
    if value is None:
        return []
    if isinstance(value, str):
        items: Iterable[Any] = re.split(r"[,;\n]|\s\|\s", value)
    elif isinstance(value, dict):
        items = [v for vals in value.values() for v in (vals if isinstance(vals, list) else [vals])]
    elif isinstance(value, Iterable):
        items = value
    else:
        items = [value]
    tags: list[str] = []
    seen: set[str] = set()
    for item in items:
        if isinstance(item, dict):
            item = item.get("name") or item.get("text") or item.get("value") or ""
        tag = " ".join(str(item).split()).strip(" -*•\"'`.")
        if tag and len(tag) <= 80 and tag.lower() not in seen:
            seen.add(tag.lower())
            tags.append(tag)
    return tags[:20]


def parse_summary_reply(text: str) -> dict[str, Any] | None:
    """``{"summary": str, "tags": [str]}``, or ``None`` when the reply holds nothing usable.

    A ``null`` summary with tags is fine (summary becomes ""); prose becomes the summary,
    with a trailing "Tags: a, b" line read as tags.
    """
    for value in json_candidates(text):
        if isinstance(value, dict):
            lowered = {str(k).lower(): v for k, v in value.items()}
            summary = next((lowered[k] for k in _SUMMARY_KEYS if k in lowered), None)
            tags = next((lowered[k] for k in _TAG_KEYS if k in lowered), None)
            if summary is None and tags is None:
                continue
            summary_text = " ".join(str(summary).split()) if summary not in (None, "") else ""
            result = {"summary": summary_text[:600], "tags": parse_tags(tags)}
            return result if result["summary"] or result["tags"] else None
    prose = strip_thinking(text)
    if not prose or prose[:1] in "{[" or prose.startswith("```"):
        return None
    tags = []  # list[str] (the name first held a JSON reply's value, above)
    m = re.search(r"^\W*(?:tags|entities|keywords)\W*:\s*(.+)$", prose, re.I | re.M)
    if m:
        tags = parse_tags(m.group(1))
        prose = prose[: m.start()] + prose[m.end() :]
    prose = re.sub(r"^\W*summary\W*:\s*", "", prose.strip(), flags=re.I)
    summary = " ".join(prose.split())
    if not re.search(r"[A-Za-z]{2}", summary):
        return None
    return {"summary": summary[:600], "tags": tags}


# --- search -----------------------------------------------------------------------------


class IdResolver:
    """Maps what a model wrote (``"[0003]"``, ``3``, ``"node 0003"``) to a known node id."""

    def __init__(self, known_ids: Collection[str]):
        self.known = {str(k): str(k) for k in known_ids}
        self.by_number: dict[int, str] = {}
        for key in self.known:
            if key.isdigit():
                self.by_number.setdefault(int(key), key)

    def resolve(self, item: Any) -> str | None:
        if isinstance(item, dict):
            for key in ("node_id", "id", "nodeId", "section_id"):
                if key in item:
                    return self.resolve(item[key])
            return None
        if isinstance(item, bool):
            return None
        if isinstance(item, int):
            return self.by_number.get(item)
        text = str(item).strip().strip("[]()#\"'` ")
        if text in self.known:
            return text
        m = re.fullmatch(
            r"(?:node|section|id)?\s*[:#]?\s*(\d{1,9})(?:\s*[:\-—].*)?", text, re.I | re.S
        )
        if m:
            digits = m.group(1)
            return self.known.get(digits) or self.by_number.get(int(digits))
        return None

    def resolve_all(self, items: Iterable[Any]) -> list[str]:
        out: list[str] = []
        for item in items:
            node_id = self.resolve(item)
            if node_id is not None and node_id not in out:
                out.append(node_id)
        return out


def _reasoning_of(value: dict[str, Any]) -> str:
    lowered = {str(k).lower(): v for k, v in value.items()}
    for key in REASON_KEYS:
        if lowered.get(key):
            return " ".join(str(lowered[key]).split())[:500]
    return ""


def _ids_in_object(
    value: dict[str, Any], resolver: IdResolver, keys: Iterable[str]
) -> list[str] | None:
    lowered = {str(k).lower(): v for k, v in value.items()}
    for key in keys:
        if key in lowered and isinstance(lowered[key], list | str | int):
            raw = lowered[key]
            items = raw if isinstance(raw, list) else re.split(r"[,\s]+", str(raw))
            return resolver.resolve_all(items)
    return None


def parse_search_reply(text: str, known_ids: Collection[str]) -> tuple[list[str], str, str]:
    """``(node_ids, reasoning, how)``: ids in the model's order, unknown and repeated dropped.

    ``how`` says what was understood ("json", "json-list", "prose", "none") for the trace.
    An explicit empty list comes back as ``([], reasoning, "json-empty")``.
    """
    resolver = IdResolver(known_ids)
    for value in json_candidates(text):
        if isinstance(value, dict):
            ids = _ids_in_object(value, resolver, ID_KEYS)
            if ids is None:  # any list-valued field that holds known ids
                for field in value.values():
                    if isinstance(field, list) and resolver.resolve_all(field):
                        ids = resolver.resolve_all(field)
                        break
            if ids:
                return ids, _reasoning_of(value), "json"
            if ids == [] and any(k in {str(x).lower() for x in value} for k in ID_KEYS):
                return [], _reasoning_of(value), "json-empty"
        elif isinstance(value, list):
            ids = resolver.resolve_all(value)
            if ids:
                return ids, "", "json-list"
    prose = strip_thinking(text)
    bracketed = resolver.resolve_all(re.findall(r"\[\s*(\d{1,9})\s*\]", prose))
    padded = [
        t for t in re.findall(r"\b\d{2,9}\b", prose) if t in resolver.known and t.startswith("0")
    ]
    ids = resolver.resolve_all(bracketed + padded)
    if not ids:
        ids = resolver.resolve_all(
            int(t) for t in re.findall(r"(?<![\d.])\d{1,6}(?!\d|\.\d)", prose)
        )
    if ids:
        return ids, " ".join(prose.split())[:300], "prose"
    return [], "", "none"


def parse_navigation_step(
    text: str, known_ids: Collection[str], has_children: Collection[str]
) -> tuple[list[str], list[str], str, str]:
    """``(open_ids, read_ids, reasoning, how)`` for one level-by-level step.

    Accepts ``{"open": [...], "read": [...]}`` (also expand/explore, select/answer); a plain
    list of ids is split: nodes with sub-sections are opened, leaves are read.
    """
    resolver = IdResolver(known_ids)
    for value in json_candidates(text):
        if isinstance(value, dict):
            opened = _ids_in_object(value, resolver, ("open", "expand", "explore", "drill_down"))
            read = _ids_in_object(value, resolver, ("read", "select", "answer", "selected"))
            if opened is not None or read is not None:
                opened, read = opened or [], read or []
                if opened or read:
                    return opened, read, _reasoning_of(value), "json"
    ids, reasoning, how = parse_search_reply(text, known_ids)
    parents = set(has_children)
    return [i for i in ids if i in parents], [i for i in ids if i not in parents], reasoning, how
