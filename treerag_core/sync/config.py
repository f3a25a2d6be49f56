"""A synced source's settings: made from what an admin typed, checked once, stored as a
plain dict, and turned back into a reader for each sync.

Stored: ``source_id``, ``kind`` (``folder`` or ``s3``), ``path`` (a folder's real path) or
``bucket``, ``prefix``, ``endpoint`` and ``region``, ``include`` and ``exclude`` patterns,
``collection``, and ``credentials``: a reference only, ``{"env": NAME}`` or
``{"file": PATH}`` (or nothing: boto3's own chain), never a key or a secret.
"""

from __future__ import annotations

import uuid
from typing import Any

from ..errors import InvalidSourceError
from ..limits import Limits
from ..settings import load
from ..text.messages import raised
from .folder import FolderSource, check_folder
from .listing import SourceReader
from .patterns import check_patterns
from .s3 import S3Source, check_endpoint, parse_s3_url

FOLDER = "folder"
S3 = "s3"
KINDS = (FOLDER, S3)
# What an admin may change after adding a source (its kind and place are its identity:
# another folder is another source).
EDITABLE = ("collection", "include", "exclude", "endpoint", "region", "credentials")


def new_source_id() -> str:
    return "src-" + uuid.uuid4().hex[:12]


def source_settings(
    kind: str,
    location: str,
    *,
    include: Any = None,
    exclude: Any = None,
    endpoint: str | None = None,
    region: str | None = None,
    credentials_env: str | None = None,
    credentials_file: str | None = None,
    limits: Limits | None = None,
) -> dict[str, Any]:
    """The stored settings for a new source (without its id and collection), checked."""
    kind = str(kind or "").strip().lower()
    if kind not in KINDS:
        raise raised(InvalidSourceError, "error.source_kind", kind=repr(kind[:40]))
    settings: dict[str, Any] = {
        "kind": kind,
        "include": check_patterns(include, "include"),
        "exclude": check_patterns(exclude, "exclude"),
    }
    if kind == FOLDER:
        if endpoint or credentials_env or credentials_file:
            raise raised(InvalidSourceError, "error.folder_no_endpoint")
        return {**settings, "path": check_folder(location)}
    bucket, prefix = parse_s3_url(location)
    settings.update(bucket=bucket, prefix=prefix, region=(region or "").strip() or None)
    settings["endpoint"] = (endpoint or "").strip().rstrip("/") or None
    check_endpoint(settings["endpoint"], limits or load().limits())
    settings["credentials"] = credentials_ref(credentials_env, credentials_file)
    return settings


def credentials_ref(env: str | None, path: str | None) -> dict[str, str]:
    """The stored reference: a variable's name or a file's path, one of them at most."""
    env, path = (env or "").strip(), (path or "").strip()
    if env and path:
        raise raised(InvalidSourceError, "error.credentials_both")
    if env and not env.replace("_", "").isalnum():
        raise raised(InvalidSourceError, "error.credentials_env_name", name=repr(env[:60]))
    return {"env": env} if env else {"file": path} if path else {}


def describe(source: dict[str, Any]) -> str:
    """Where a source is, as people read it: a folder path or ``s3://bucket/prefix``."""
    if source.get("kind") == S3:
        where = f"s3://{source.get('bucket')}/{source.get('prefix') or ''}"
        endpoint = source.get("endpoint")
        return f"{where} at {endpoint}" if endpoint else where
    return str(source.get("path") or "")


def credentials_label(source: dict[str, Any]) -> str:
    """The credentials reference as shown: a name or a path, never what it holds."""
    ref = source.get("credentials") or {}
    if ref.get("env"):
        return f"environment variable {ref['env']}"
    if ref.get("file"):
        return f"file {ref['file']}"
    return "boto3's default chain" if source.get("kind") == S3 else ""


def open_reader(source: dict[str, Any], limits: Limits) -> SourceReader:
    """The reader of a stored source (an S3 endpoint vetted again: DNS may have changed)."""
    if source.get("kind") == S3:
        return S3Source(source, limits)
    return FolderSource(source, limits)
