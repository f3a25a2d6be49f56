"""A real S3 API followed by the library, on both stores: moto's server on 127.0.0.1 started
by the fixture, or, when TREERAG_TEST_S3_ENDPOINT is set, that endpoint (MinIO, AWS, …;
with TREERAG_TEST_S3_BUCKET, an existing bucket, and TREERAG_TEST_S3_KEYS holding
``ACCESS_KEY_ID:SECRET``; each test writes under a prefix of its own and removes it).

Also: throttling and server errors retried (a local server answering 503 first), the
endpoint guard's decisions (no socket opened to any other address), credentials kept as
a reference only."""

from __future__ import annotations

import http.server
import json
import os
import socket
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import RegistryUnderTest

from testkit.builders import make_pdf
from testkit.sources_helpers import synced_docs
from treerag_core import ConfigError
from treerag_core.access.audit import read_audit_log
from treerag_core.errors import BlockedURLError
from treerag_core.limits import Limits
from treerag_core.sync import s3 as s3_module
from treerag_core.sync.run import sync_source
from treerag_core.sync.s3 import S3Source, check_endpoint, credentials
from treerag_core.sync.sources import add_source, list_sources

KEYS_ENV = "TREERAG_TEST_S3_KEYS"
MOTO_KEYS = "treerag-test-key:treerag-test-secret"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def s3_server() -> Iterator[dict[str, str]]:
    """The S3 API the tests use: an endpoint, a bucket and the credentials' value."""
    if os.environ.get("TREERAG_TEST_S3_ENDPOINT"):
        yield {
            "endpoint": os.environ["TREERAG_TEST_S3_ENDPOINT"],
            "bucket": os.environ["TREERAG_TEST_S3_BUCKET"],
            "keys": os.environ[KEYS_ENV],
            "region": os.environ.get("TREERAG_TEST_S3_REGION", "us-east-1"),
        }
        return
    from moto.server import ThreadedMotoServer

    port = _free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    try:
        _client({"endpoint": endpoint, "keys": MOTO_KEYS}).create_bucket(Bucket="team-docs")
        yield {"endpoint": endpoint, "bucket": "team-docs", "keys": MOTO_KEYS,
               "region": "us-east-1"}  # fmt: skip
    finally:
        server.stop()


def _client(server: dict[str, str]) -> Any:
    import boto3

    key, secret = server["keys"].split(":", 1)
    return boto3.client("s3", endpoint_url=server["endpoint"], aws_access_key_id=key,
                        aws_secret_access_key=secret,
                        region_name=server.get("region") or "us-east-1")  # fmt: skip


@pytest.fixture
def bucket(s3_server: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Iterator[dict]:
    """A prefix of its own in the bucket, the credentials in an environment variable, and
    loopback endpoints allowed (as a deployment on its own network would set it)."""
    monkeypatch.setenv(KEYS_ENV, s3_server["keys"])
    monkeypatch.setenv("TREERAG_ALLOW_PRIVATE_URLS", "1")
    prefix = f"t-{uuid.uuid4().hex[:10]}/"
    client = _client(s3_server)
    yield {**s3_server, "prefix": prefix, "client": client}
    listed = client.list_objects_v2(Bucket=s3_server["bucket"], Prefix=prefix)
    for item in listed.get("Contents") or []:
        client.delete_object(Bucket=s3_server["bucket"], Key=item["Key"])


def put(bucket: dict, key: str, data: bytes) -> None:
    bucket["client"].put_object(Bucket=bucket["bucket"], Key=bucket["prefix"] + key, Body=data)


def add(bucket: dict, registry: str) -> str:
    source = add_source(
        "s3", f"s3://{bucket['bucket']}/{bucket['prefix']}", "finance",
        endpoint=bucket["endpoint"], region=bucket["region"], credentials_env=KEYS_ENV,
        registry_path=registry,
    )  # fmt: skip
    return str(source["source_id"])


POLICY = b"# Expense policy\n\n## Meals\nMeals are paid up to 40 euros a day.\n"
MINUTES = b"# Board minutes\n\n## Decisions\nThe board approved the 2025 budget.\n"


def test_a_bucket_is_followed_by_etag_through_changes(
    any_registry: RegistryUnderTest, bucket: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(s3_module, "S3_PAGE_SIZE", 2)  # several pages even for a few objects
    reg = any_registry.url
    put(bucket, "policies/expenses.md", POLICY)
    put(bucket, "minutes/2024-q3.md", MINUTES)
    put(
        bucket, "budget.pdf", make_pdf(tmp_path / "b.pdf", ["Budget\n\nTotal 40,000."]).read_bytes()
    )
    put(bucket, "broken.pdf", b"not a pdf")
    put(bucket, "notes.numbers", b"not a format we read")
    sid = add(bucket, reg)
    first = sync_source(sid, reg)
    assert first["counts"]["added"] == 3 and "broken.pdf" in first["errors"]
    assert set(synced_docs(reg, sid)) == {"policies/expenses.md", "minutes/2024-q3.md",
                                          "budget.pdf"}  # fmt: skip

    again = sync_source(sid, reg)
    assert again["counts"]["unchanged"] == 3
    assert again["bytes_read"] == len(b"not a pdf")  # ETags compared: only the failed file read

    client, name, prefix = bucket["client"], bucket["bucket"], bucket["prefix"]
    client.copy_object(Bucket=name, Key=prefix + "archive/2024-q3.md",
                       CopySource={"Bucket": name, "Key": prefix + "minutes/2024-q3.md"})  # fmt: skip
    client.delete_object(Bucket=name, Key=prefix + "minutes/2024-q3.md")
    put(bucket, "policies/expenses.md", POLICY + b"\n## Hotels\nHotels up to 140 euros.\n")
    client.delete_object(Bucket=name, Key=prefix + "budget.pdf")
    before = synced_docs(reg, sid)
    later = sync_source(sid, reg)
    counts = later["counts"]
    assert (counts["moved"], counts["updated"], counts["removed"]) == (1, 1, 1)
    now = synced_docs(reg, sid)
    assert now["archive/2024-q3.md"]["doc_id"] == before["minutes/2024-q3.md"]["doc_id"]
    assert now["policies/expenses.md"]["doc_id"] == before["policies/expenses.md"]["doc_id"]
    assert {d["collection"] for d in now.values()} == {"finance"}


def test_a_key_with_dotdot_or_a_leading_slash_writes_nothing_outside_the_store(
    any_registry: RegistryUnderTest, bucket: dict, tmp_path: Path
) -> None:
    reg = any_registry.url
    put(bucket, "../escape.md", POLICY)
    put(bucket, "/absolute.md", POLICY)
    put(bucket, "fine.md", MINUTES)
    before = {p for p in tmp_path.parent.rglob("*")}
    report = sync_source(add(bucket, reg), reg)
    assert report["counts"]["added"] == 1
    assert set(report["skipped"]) == {"../escape.md", "/absolute.md"}
    assert all("unsafe key" in why for why in report["skipped"].values())
    created = {p for p in tmp_path.parent.rglob("*")} - before
    store_files = str(tmp_path)  # the registry file and its folders live here (TinyDB)
    assert all(str(p).startswith(store_files) for p in created)
    assert not any(p.name in ("escape.md", "absolute.md") for p in created)


def test_credentials_are_a_reference_never_stored_or_shown(
    any_registry: RegistryUnderTest, bucket: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    reg = any_registry.url
    put(bucket, "fine.md", MINUTES)
    sid = add(bucket, reg)
    sync_source(sid, reg)
    secret = bucket["keys"].split(":", 1)[1]
    shown = list_sources(reg)[0]
    assert shown["credentials"] == {"env": KEYS_ENV}
    assert shown["credentials_shown"] == f"environment variable {KEYS_ENV}"
    assert secret not in json.dumps(list_sources(reg)) + json.dumps(read_audit_log(reg))
    if any_registry.is_file:
        stored = "".join(p.read_text(errors="ignore") for p in any_registry.folder.rglob("*")
                         if p.is_file() and p.suffix in (".json", ".jsonl"))  # fmt: skip
        assert secret not in stored
    monkeypatch.delenv(KEYS_ENV)
    with pytest.raises(ConfigError, match=f"{KEYS_ENV} must hold") as refused:
        sync_source(sid, reg)
    assert secret not in str(refused.value)
    assert list_sources(reg)[0]["running"] is False


class Throttling(http.server.BaseHTTPRequestHandler):
    """An S3 listing that answers 503 SlowDown twice before the real reply."""

    calls: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        Throttling.calls.append(self.path)
        if len(Throttling.calls) <= 2:
            body = b"<Error><Code>SlowDown</Code><Message>Reduce your rate</Message></Error>"
            self.send_response(503)
        else:
            body = (
                b'<?xml version="1.0"?><ListBucketResult><Name>b</Name><Prefix></Prefix>'
                b"<KeyCount>1</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>"
                b"<Contents><Key>a.md</Key><Size>10</Size><ETag>&quot;e1&quot;</ETag>"
                b"</Contents></ListBucketResult>"
            )
            self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_throttling_and_server_errors_are_retried_with_back_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    Throttling.calls = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Throttling)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        endpoint = f"http://127.0.0.1:{server.server_address[1]}"
        source = {"bucket": "b", "prefix": "", "endpoint": endpoint,
                  "credentials": {}}  # fmt: skip
        monkeypatch.setenv("AWS_ACCESS_KEY_ID", "x")
        monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "y")
        reader = S3Source(source, Limits(allow_private_urls=True))
        listing = reader.list()
    finally:
        server.shutdown()
    assert [e.path for e in listing.entries] == ["a.md"] and listing.entries[0].etag == "e1"
    assert len(Throttling.calls) == 3  # two 503s, then the answer


def test_the_endpoint_follows_the_url_readers_rules_without_a_socket() -> None:
    def resolver(host: str, port: int) -> list[str]:  # no DNS: the decision only
        return {"minio.internal": ["192.168.1.4"], "s3.example.com": ["93.184.216.34"]}[host]

    strict, open_ = Limits(), Limits(allow_private_urls=True)
    for url in ("http://10.1.2.3:9000", "http://127.0.0.1:9000", "http://[::1]:9000",
                "http://169.254.169.254", "http://minio.internal:9000", "ftp://x",
                "http://user:pw@s3.example.com"):  # fmt: skip
        with pytest.raises(BlockedURLError):
            check_endpoint(url, strict, resolver)
    check_endpoint("https://s3.example.com", strict, resolver)
    check_endpoint("http://minio.internal:9000", open_, resolver)
    with pytest.raises(BlockedURLError, match="metadata"):
        check_endpoint("http://169.254.169.254", open_, resolver)


def test_the_add_refuses_a_private_endpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TREERAG_ALLOW_PRIVATE_URLS", raising=False)
    with pytest.raises(BlockedURLError, match="private"):
        add_source("s3", "s3://b/p", endpoint="http://10.1.2.3:9000",
                   registry_path=str(tmp_path / "r.json"))  # fmt: skip
    assert list_sources(str(tmp_path / "r.json")) == []


def test_a_credentials_file_is_read_when_the_client_is_made(tmp_path: Path) -> None:
    path = tmp_path / "credentials"
    path.write_text("[default]\naws_access_key_id = AKID\naws_secret_access_key = s3cr3t\n")
    assert credentials({"file": str(path)}) == {"aws_access_key_id": "AKID",
                                                "aws_secret_access_key": "s3cr3t"}  # fmt: skip
    path.write_text("[other]\nnothing = here\n")
    with pytest.raises(ConfigError, match="no \\[default\\] section"):
        credentials({"file": str(path)})
    assert credentials({}) == {}
