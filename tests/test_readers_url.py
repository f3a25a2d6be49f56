"""URL fetching against a local http.server, and the network guard's refusals.

Only 127.0.0.1 is ever contacted. Refusals of private addresses are tested with stub
resolvers and with ``socket.create_connection`` patched to fail the test if called.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from testkit.builders import make_pdf
from treerag_core.errors import BlockedURLError, FetchError
from treerag_core.limits import Limits
from treerag_core.read.readers.netguard import check_address, parse_host_ip, split_url
from treerag_core.read.readers.url import fetch_url
from treerag_core.read.source import read_source
from treerag_core.tree.sections import parse_sections

LOCAL = ("127.0.0.1",)
PDF_BYTES: dict[str, bytes] = {}
# The slow endpoints answer late only when the fetcher fails to give up: a minute, or until
# the module's server stops. A test then sees a reply instead of its timeout error.
STALL_S = 60
STOP = threading.Event()


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:  # keep test output quiet
        pass

    def _send(self, status: int, ctype: str, body: bytes, length: int | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body) if length is None else length))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802 - http.server API
        path = self.path
        if path == "/page.html":
            body = b"<html><body><nav>menu</nav><h1>Hello</h1><p>World text.</p></body></html>"
            self._send(200, "text/html; charset=utf-8", body)
        elif path.startswith("/r/"):
            n = int(path[3:])
            self.send_response(302)
            self.send_header("Location", "/page.html" if n == 0 else f"/r/{n - 1}")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif path == "/to-private":
            self.send_response(301)
            self.send_header("Location", "http://10.0.0.1/secret")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif path == "/to-decimal":
            self.send_response(307)
            self.send_header("Location", "http://0xa9fea9fe/latest/meta-data/")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif path == "/big-declared":
            self._send(200, "text/plain", b"x" * 10, length=10_000_000)
        elif path == "/big-stream":
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()  # no Content-Length: body ends when the connection closes
            for _ in range(64):
                self.wfile.write(b"y" * 1024)
        elif path == "/json":
            self._send(200, "application/json", b'{"a": 1}')
        elif path == "/missing":
            self._send(404, "text/html", b"<h1>Not found</h1>")
        elif path == "/slow":
            STOP.wait(STALL_S)
            self._send(200, "text/plain", b"late")
        elif path == "/trickle":  # a byte every 0.1 s: each read is quick, the whole is not
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            for _ in range(STALL_S * 10):
                if STOP.wait(0.1):
                    break
                try:
                    self.wfile.write(b"z")
                    self.wfile.flush()
                except OSError:  # the fetcher gave up and closed the connection
                    break
        elif path == "/doc.pdf":
            self._send(200, "application/pdf", PDF_BYTES["doc"])
        elif path == "/notes.md":
            self._send(200, "text/markdown", b"# Notes\n\nBody\n")
        elif path == "/sjis.html":  # the charset only in the header; a wrong one in the page
            page = "<html><head><meta charset='iso-8859-1'></head><body><h1>経費精算</h1>"
            page += "<p>経費は月末までに申請します。</p></body></html>"
            self._send(200, "text/html; charset=Shift_JIS", page.encode("shift_jis"))
        else:
            self._send(404, "text/plain", b"no")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pdf = make_pdf(
        tmp_path_factory.mktemp("pdf") / "d.pdf",
        ["1 Scope\nFetched by URL.", "2 Terms\nMore."],
    )
    PDF_BYTES["doc"] = pdf.read_bytes()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    STOP.clear()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    STOP.set()
    httpd.shutdown()
    httpd.server_close()


def _limits(**changes: object) -> Limits:
    return replace(Limits(), **{"url_timeout_s": 2.0, **changes})  # type: ignore[arg-type]


@pytest.fixture
def no_sockets(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a connection was attempted: {args}")

    monkeypatch.setattr(socket, "create_connection", refuse)


# --- against the local server -----------------------------------------------------------


def test_html_page_by_url(server: str):
    st = read_source(f"{server}/page.html", _limits(allow_private_urls=True))
    assert st.source_type == "url" and st.source == f"{server}/page.html"
    assert st.file_name == "127.0.0.1/page.html"
    sections = parse_sections(st.text)
    assert [s["title"] for s in sections] == ["Hello"] and sections[0]["text"] == "World text."
    assert "menu" not in st.text


def test_a_pages_http_charset_outranks_its_own_declaration(server: str):
    """A Shift-JIS page whose server says so in Content-Type, whatever its meta says."""
    st = read_source(f"{server}/sjis.html", _limits(allow_private_urls=True))
    assert "# 経費精算" in st.text and "経費は月末までに申請します。" in st.text


def test_allowed_ips_admit_one_host_without_opening_private_ranges(server: str):
    st = read_source(f"{server}/notes.md", _limits(), allowed_ips=LOCAL)
    assert st.text.startswith("# Notes")


def test_loopback_refused_by_default(server: str):
    with pytest.raises(BlockedURLError, match="loopback"):
        read_source(f"{server}/page.html", _limits())


def test_redirects_followed_within_cap(server: str):
    body, ctype, final = fetch_url(f"{server}/r/3", _limits(url_max_redirects=5), None, LOCAL)
    assert final.endswith("/page.html") and b"Hello" in body and ctype.startswith("text/html")


def test_redirect_chain_beyond_cap(server: str):
    with pytest.raises(FetchError, match="Too many redirects"):
        fetch_url(f"{server}/r/6", _limits(url_max_redirects=5), None, LOCAL)


def test_redirect_to_private_address_refused_before_connecting(
    server: str, monkeypatch: pytest.MonkeyPatch
):
    real = socket.create_connection
    attempts: list[object] = []

    def only_loopback(address: tuple[str, int], *args: object, **kwargs: object) -> socket.socket:
        attempts.append(address)
        assert address[0] == "127.0.0.1", f"connection attempted to {address}"
        return real(address, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(socket, "create_connection", only_loopback)
    with pytest.raises(BlockedURLError, match="10.0.0.1 is a private"):
        fetch_url(f"{server}/to-private", _limits(), None, LOCAL)
    with pytest.raises(BlockedURLError, match="169.254.169.254 is a cloud metadata"):
        fetch_url(f"{server}/to-decimal", _limits(), None, LOCAL)
    assert len(attempts) == 2  # the two first hops, nothing else


def test_too_big_declared_and_streamed(server: str):
    limits = _limits(url_max_bytes=32 * 1024)
    with pytest.raises(FetchError, match="limit"):
        fetch_url(f"{server}/big-declared", limits, None, LOCAL)
    with pytest.raises(FetchError, match="larger than"):
        fetch_url(f"{server}/big-stream", limits, None, LOCAL)


def test_wrong_content_type_and_http_error(server: str):
    with pytest.raises(FetchError, match="application/json"):
        read_source(f"{server}/json", _limits(), allowed_ips=LOCAL)
    with pytest.raises(FetchError, match="HTTP 404"):
        read_source(f"{server}/missing", _limits(), allowed_ips=LOCAL)


def test_slow_server_times_out(server: str):
    """The server would answer after a minute; the fetch gives up at its timeout."""
    with pytest.raises(FetchError, match="timed out|too long"):
        fetch_url(f"{server}/slow", _limits(url_timeout_s=0.5), None, LOCAL)


def test_trickling_server_hits_overall_deadline(server: str):
    """Every read gets a byte within the timeout; only the overall deadline can stop it."""
    with pytest.raises(FetchError, match="too long|timed out"):
        fetch_url(f"{server}/trickle", _limits(url_timeout_s=0.6), None, LOCAL)


def test_pdf_by_url(server: str):
    st = read_source(f"{server}/doc.pdf", _limits(), allowed_ips=LOCAL)
    assert st.page_count == 2 and st.source_type == "url"
    got = [(s["title"], s["page_start"]) for s in parse_sections(st.text)]
    assert got == [("1 Scope", 1), ("2 Terms", 2)]


# --- the guard, without any socket ------------------------------------------------------


@pytest.mark.parametrize(
    "address", ["10.0.0.5", "169.254.169.254", "::1", "::ffff:127.0.0.1", "fd00::1"]
)
def test_stub_resolver_private_answers_refused(no_sockets: None, address: str):
    def resolver(host: str, port: int) -> list[str]:
        return [address]

    with pytest.raises(BlockedURLError, match="Refusing"):
        read_source("http://innocent.example.com/", _limits(), resolver=resolver)


def test_any_private_answer_among_public_ones_is_refused(no_sockets: None):
    def resolver(host: str, port: int) -> list[str]:
        return ["93.184.216.34", "192.168.1.10"]

    with pytest.raises(BlockedURLError, match="192.168.1.10"):
        fetch_url("https://mixed.example.com/x", _limits(), resolver)


def test_metadata_refused_even_when_private_allowed(no_sockets: None):
    with pytest.raises(BlockedURLError, match="metadata"):
        fetch_url("http://169.254.169.254/latest/meta-data/", _limits(allow_private_urls=True))


@pytest.mark.parametrize(
    "url",
    [
        "http://2130706433/",
        "http://0x7f.1/",
        "http://017700000001/",
        "http://127.1/",
        "http://[::ffff:127.0.0.1]/",
        "http://[fe80::1]/",
        "http://0.0.0.0/",
        "http://100.64.0.1/",
    ],
)
def test_ip_spellings_refused(no_sockets: None, url: str):
    with pytest.raises(BlockedURLError):
        fetch_url(url, _limits())


@pytest.mark.parametrize(
    "url", ["ftp://example.com/x", "file:///etc/passwd", "http://user:pw@example.com/", "http:///x"]
)
def test_bad_schemes_and_userinfo(no_sockets: None, url: str):
    with pytest.raises(BlockedURLError):
        split_url(url)


def test_pure_decisions():
    assert str(parse_host_ip("0x7f.0.0.1")) == "127.0.0.1"
    assert parse_host_ip("example.com") is None
    assert check_address("8.8.8.8") is None
    assert check_address("10.1.2.3") and check_address("10.1.2.3", allow_private=True) is None
    assert check_address("172.16.5.4") and check_address("100.64.0.1")
    assert check_address("fc00::1") and check_address("fe80::1")
    assert check_address("fd00:ec2::254", allow_private=True)  # metadata stays refused
    assert check_address("224.0.0.1") and check_address("::")
