"""An S3 bucket (AWS, MinIO, Ceph, R2, … by endpoint URL) as a sync source, through boto3.

- The endpoint is vetted by the URL reader's network guard before every sync (no loopback,
  private or metadata addresses unless ``TREERAG_ALLOW_PRIVATE_URLS``), so an admin's typo
  cannot point the server at its own network.
- Listing pages through ``list_objects_v2``; each object's ETag is its fingerprint, so a
  re-sync compares without reading any object.
- Server errors and throttling are retried with exponential back-off and jitter by
  botocore's ``standard`` retry mode (its list of retryable errors is AWS's own).
- Credentials are read when the client is made, from the environment variable or file the
  source names; their values are never stored or shown.
- A key with ``..``, an empty segment, a backslash or a leading ``/`` is skipped: a copy is
  kept under a hash of its key anyway (``store/sources.synced_key``), never at the key.
"""

from __future__ import annotations

import configparser
import os
from typing import Any
from urllib.parse import urlsplit

from ..errors import ConfigError, DocumentTooLargeError, InvalidSourceError
from ..limits import Limits
from ..read.readers.netguard import Resolver, split_url, vet_host
from ..text.messages import raised
from .listing import Listing
from .patterns import hidden, wanted
from .plan import Listed

# Attempts per request, the first included: with the standard mode's back-off (base 1 s,
# doubling, jittered, capped at 20 s) four retries ride out about half a minute of
# throttling or a restarting server before the file counts as failed.
S3_MAX_ATTEMPTS = 5
# Keys per listing page: S3's own maximum, so a bucket of 10,000 files is ten requests.
S3_PAGE_SIZE = 1000
DEFAULT_REGION = "us-east-1"


def parse_s3_url(url: str) -> tuple[str, str]:
    """``s3://bucket/prefix`` → (bucket, prefix ending in ``/`` or empty)."""
    parts = urlsplit(str(url or "").strip())
    if parts.scheme.lower() != "s3" or not parts.netloc:
        raise raised(InvalidSourceError, "error.bucket_url", url=repr(str(url)[:200]))
    prefix = parts.path.strip("/")
    return parts.netloc, f"{prefix}/" if prefix else ""


def check_endpoint(url: str | None, limits: Limits, resolver: Resolver | None = None) -> None:
    """Refuse an endpoint the URL reader would refuse (``BlockedURLError``). None: AWS's
    own endpoint for the region."""
    if not url:
        return
    parts = split_url(url)
    port = parts.port or (443 if parts.scheme.lower() == "https" else 80)
    vet_host(parts.hostname or "", port, limits.allow_private_urls, resolver)


def credentials(ref: dict[str, Any] | None) -> dict[str, str]:
    """boto3's credential arguments from the reference a source stores: ``{"env": NAME}``
    (the variable holds ``ACCESS_KEY_ID:SECRET_ACCESS_KEY``), ``{"file": PATH}`` (an AWS
    credentials file, its ``[default]`` or only section), or nothing (boto3's own chain:
    AWS_ACCESS_KEY_ID, an instance role, …)."""
    ref = ref or {}
    if ref.get("env"):
        value = os.environ.get(str(ref["env"]), "")
        key, _, secret = value.partition(":")
        if not key or not secret:
            raise raised(ConfigError, "error.credentials_env", name=ref["env"])
        secret, _, token = secret.partition(":")
        return _keys(key, secret, token)
    if ref.get("file"):
        parser = configparser.ConfigParser()
        try:
            with open(str(ref["file"]), encoding="utf-8") as fh:
                parser.read_file(fh)
        except (OSError, configparser.Error, UnicodeDecodeError) as exc:
            raise raised(
                ConfigError, "error.credentials_file", path=ref["file"], reason=str(exc)
            ) from None
        names = parser.sections()
        section = "default" if "default" in names else (names[0] if len(names) == 1 else "")
        if not section or not parser.get(section, "aws_access_key_id", fallback=""):
            raise raised(ConfigError, "error.credentials_section", path=ref["file"])
        return _keys(
            parser.get(section, "aws_access_key_id"),
            parser.get(section, "aws_secret_access_key", fallback=""),
            parser.get(section, "aws_session_token", fallback=""),
        )
    return {}


def _keys(key: str, secret: str, token: str) -> dict[str, str]:
    out = {"aws_access_key_id": key.strip(), "aws_secret_access_key": secret.strip()}
    if token.strip():
        out["aws_session_token"] = token.strip()
    return out


def unsafe_key(path: str) -> bool:
    """A key that names a parent, the root, an empty folder or a Windows path."""
    parts = path.split("/")
    return (
        path.startswith("/")
        or "\\" in path
        or "\0" in path
        or any(p in ("", ".", "..") for p in parts)
    )


def make_client(source: dict[str, Any], limits: Limits) -> Any:
    """A boto3 S3 client for the source, its endpoint vetted first."""
    check_endpoint(source.get("endpoint"), limits)
    try:
        import boto3
        from botocore.config import Config
    except ImportError as exc:
        raise raised(ConfigError, "error.needs_boto3", reason=str(exc)) from None
    config = Config(
        retries={"max_attempts": S3_MAX_ATTEMPTS, "mode": "standard"},
        connect_timeout=limits.url_timeout_s,
        read_timeout=limits.url_timeout_s,
        # Path-style (endpoint/bucket/key) works on every S3-compatible server; virtual
        # hosts (bucket.endpoint) need DNS names per bucket that MinIO and Ceph rarely have.
        s3={"addressing_style": "path" if source.get("endpoint") else "auto"},
    )
    return boto3.client(
        "s3",
        endpoint_url=source.get("endpoint") or None,
        region_name=source.get("region") or DEFAULT_REGION,
        config=config,
        **credentials(source.get("credentials")),
    )


class S3Source:
    """One bucket prefix, as a sync lists and reads it. ``bytes_read`` counts what was read."""

    def __init__(self, source: dict[str, Any], limits: Limits, client: Any = None) -> None:
        self.bucket, self.prefix = source["bucket"], source.get("prefix") or ""
        self.include = list(source.get("include") or [])
        self.exclude = list(source.get("exclude") or [])
        self.limits = limits
        self.client = client or make_client(source, limits)
        self.bytes_read = 0

    def list(self) -> Listing:
        listing = Listing()
        pages = self.client.get_paginator("list_objects_v2").paginate(
            Bucket=self.bucket, Prefix=self.prefix, PaginationConfig={"PageSize": S3_PAGE_SIZE}
        )
        for page in pages:
            for item in page.get("Contents") or []:
                path = str(item["Key"])[len(self.prefix) :]
                if not path or path.endswith("/"):
                    continue  # the prefix itself, or a folder marker
                if unsafe_key(path):
                    listing.skipped[path[:300]] = "an unsafe key (.., /, \\): not synced"
                    continue
                if any(hidden(p) for p in path.split("/")) or not wanted(
                    path, self.include, self.exclude
                ):
                    continue
                if path.count("/") > self.limits.sync_max_depth:
                    listing.skipped[path] = f"deeper than {self.limits.sync_max_depth} folders"
                    continue
                entry = Listed(path, int(item.get("Size") or 0), etag=_etag(item.get("ETag")))
                if not listing.add(entry, self.limits):
                    return listing
        return listing

    def entry(self, path: str) -> Listed | None:
        """The object at ``path`` as a listing would give it; None when it is gone."""
        if unsafe_key(path):
            raise raised(InvalidSourceError, "error.unsafe_key", name=repr(path[:200]))
        from botocore.exceptions import ClientError

        try:
            head = self.client.head_object(Bucket=self.bucket, Key=self.prefix + path)
        except ClientError as exc:
            if str(exc.response.get("Error", {}).get("Code")) in ("404", "NoSuchKey", "NotFound"):
                return None
            raise
        return Listed(path, int(head.get("ContentLength") or 0), etag=_etag(head.get("ETag")))

    def read(self, path: str) -> tuple[bytes, str]:
        """The object's bytes and ``etag:…`` of what was read, within the size limit."""
        if unsafe_key(path):
            raise raised(InvalidSourceError, "error.unsafe_key", name=repr(path[:200]))
        limit = self.limits.max_file_bytes
        reply = self.client.get_object(Bucket=self.bucket, Key=self.prefix + path)
        if int(reply.get("ContentLength") or 0) > limit:
            raise raised(
                DocumentTooLargeError, "error.over_file_limit", name=path,
                limit=f"{limit / 1e6:.0f}",
            )  # fmt: skip
        data = reply["Body"].read(limit + 1)
        self.bytes_read += len(data)
        if len(data) > limit:
            raise raised(
                DocumentTooLargeError, "error.over_file_limit", name=path,
                limit=f"{limit / 1e6:.0f}",
            )  # fmt: skip
        return data, f"etag:{_etag(reply.get('ETag'))}"


def _etag(value: Any) -> str:
    return str(value or "").strip().strip('"')
