"""The deployment's nginx file, run for real: what reaches the app behind it.

An upstream on loopback records the headers of each request it receives. Through the proxy,
a person's identity arrives on plain requests and on the WebSocket upgrade alike, and what
the browser claims for itself under the same names never arrives. No browser needed: the
end-to-end run with Streamlit and Chromium is ``test_browser_proxy.py``.
"""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from reverse_proxy import running_proxy


class _Recorder(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - the handler's protocol
        body = json.dumps({k.lower(): v for k, v in self.headers.items()}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: object) -> None:
        pass


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    upstream = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    people = {
        "hana": {"X-Forwarded-User": "hana@example.com", "X-Forwarded-Groups": "hr"},
        "erin": {"X-Forwarded-Email": "erin@example.com"},
    }
    workdir: Path = tmp_path_factory.mktemp("nginx")
    try:
        with running_proxy(workdir, upstream.server_address[1], people) as urls:
            yield urls
    finally:
        upstream.shutdown()
        upstream.server_close()


def _received(base: str, headers: dict[str, str]) -> dict[str, str]:
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        conn.request("GET", "/_stcore/stream", headers=headers)
        resp = conn.getresponse()
        assert resp.status == 200
        return json.loads(resp.read())
    finally:
        conn.close()


def test_the_proxy_sets_the_identity_on_every_request(proxied: dict[str, str]) -> None:
    plain = _received(proxied["hana"], {})
    assert plain["x-forwarded-user"] == "hana@example.com"
    assert plain["x-forwarded-groups"] == "hr"
    assert "x-forwarded-email" not in plain  # an empty identity field is not sent at all


def test_the_websocket_upgrade_carries_the_identity(proxied: dict[str, str]) -> None:
    upgrade = {
        "Upgrade": "websocket",
        "Connection": "Upgrade",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version": "13",
    }
    seen = _received(proxied["erin"], upgrade)
    assert seen["upgrade"] == "websocket" and seen["connection"] == "upgrade"
    assert seen["x-forwarded-email"] == "erin@example.com"
    assert "x-forwarded-user" not in seen


def test_what_the_browser_claims_never_reaches_the_app(proxied: dict[str, str]) -> None:
    forged = {
        "X-Forwarded-User": "root@example.com",
        "X-Forwarded-Email": "root@example.com",
        "X-Forwarded-Groups": "admins",
    }
    seen = _received(proxied["hana"], forged)
    assert seen["x-forwarded-user"] == "hana@example.com" and seen["x-forwarded-groups"] == "hr"
    assert "x-forwarded-email" not in seen
    seen = _received(proxied["erin"], forged)
    assert seen["x-forwarded-email"] == "erin@example.com"
    assert "x-forwarded-user" not in seen and "x-forwarded-groups" not in seen
