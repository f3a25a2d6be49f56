"""Fetch an http(s) URL safely: vetted addresses, bounded redirects, time and size.

Each hop resolves the host once through :mod:`.netguard`, refuses blocked addresses, and
connects to exactly that vetted IP (Host header and TLS SNI/certificate check still use the
URL's host name), so DNS rebinding between check and connect is not possible. Redirects are
followed by hand so every hop is vetted again.
"""

from __future__ import annotations

import http.client
import socket
import ssl
import time
from collections.abc import Collection
from urllib.parse import urljoin

from ...errors import BlockedURLError, FetchError
from ...limits import Limits
from ...text.messages import raised
from ..formats import accepted_mime_types, content_format
from .netguard import Resolver, split_url, vet_host

_REDIRECTS = {301, 302, 303, 307, 308}
_CHUNK = 64 * 1024
_USER_AGENT = "treerag/0.1 (document indexer)"


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS to a fixed IP while verifying the certificate for the original host name."""

    def __init__(
        self, ip: str, port: int, server_hostname: str, timeout: float, context: ssl.SSLContext
    ) -> None:
        super().__init__(ip, port, timeout=timeout, context=context)
        self._server_hostname = server_hostname
        self._tls_context = context

    def connect(self) -> None:
        sock = socket.create_connection((self.host, self.port), self.timeout)
        self.sock = self._tls_context.wrap_socket(sock, server_hostname=self._server_hostname)


def fetch_url(
    url: str,
    limits: Limits,
    resolver: Resolver | None = None,
    allowed_ips: Collection[str] = (),
) -> tuple[bytes, str, str]:
    """GET ``url`` → (body, content type, final URL) within the limits, or FetchError.

    ``allowed_ips`` admits specific addresses even when private URLs are not allowed (a
    deployment's one internal host; tests on 127.0.0.1) without opening all private ranges.
    """
    deadline = time.monotonic() + limits.url_timeout_s
    current = url
    for _hop in range(limits.url_max_redirects + 1):
        status, headers, body = _get_once(current, limits, resolver, allowed_ips, deadline)
        if status in _REDIRECTS:
            location = headers.get("location")
            if not location:
                raise raised(FetchError, "error.redirect_no_location", url=current, status=status)
            current = urljoin(current, location.strip())
            continue
        if status >= 400:
            raise raised(FetchError, "error.http_status", url=current, status=status)
        if status >= 300 or status < 200:
            raise raised(FetchError, "error.status_unusable", url=current, status=status)
        content_type = headers.get("content-type", "")
        content_format(content_type)
        return body, content_type, current
    raise raised(FetchError, "error.too_many_redirects", limit=limits.url_max_redirects, url=url)


def _get_once(
    url: str,
    limits: Limits,
    resolver: Resolver | None,
    allowed_ips: Collection[str],
    deadline: float,
) -> tuple[int, dict[str, str], bytes]:
    parts = split_url(url)
    host = parts.hostname or ""
    scheme = parts.scheme.lower()
    port = parts.port or (443 if scheme == "https" else 80)
    ip = _vetted_ip(host, port, limits, resolver, allowed_ips)
    remaining = _remaining(deadline, url)
    timeout = min(limits.url_timeout_s, remaining)
    if scheme == "https":
        conn: http.client.HTTPConnection = _PinnedHTTPSConnection(
            ip, port, host, timeout, ssl.create_default_context()
        )
    else:
        conn = http.client.HTTPConnection(ip, port, timeout=timeout)
    host_header = host if ":" not in host else f"[{host}]"
    if parts.port:
        host_header = f"{host_header}:{parts.port}"
    path = parts.path or "/"
    if parts.query:
        path = f"{path}?{parts.query}"
    try:
        conn.request(
            "GET",
            path,
            headers={
                "Host": host_header,
                "User-Agent": _USER_AGENT,
                "Accept": ", ".join(accepted_mime_types()),
                "Accept-Encoding": "identity",
            },
        )
        resp = conn.getresponse()
        headers = {k.lower(): v for k, v in resp.getheaders()}
        if resp.status in _REDIRECTS or resp.status >= 300:
            return resp.status, headers, b""
        content_format(headers.get("content-type", ""))  # refuse before downloading
        body = _read_body(resp, headers, limits, deadline, url, conn)
        return resp.status, headers, body
    except TimeoutError as exc:
        raise raised(
            FetchError, "error.fetch_timeout", url=url, seconds=f"{limits.url_timeout_s:g}"
        ) from exc
    except (OSError, http.client.HTTPException) as exc:
        raise raised(FetchError, "error.fetch_failed", url=url, reason=str(exc)) from exc
    finally:
        conn.close()


def _vetted_ip(
    host: str,
    port: int,
    limits: Limits,
    resolver: Resolver | None,
    allowed_ips: Collection[str],
) -> str:
    if allowed_ips:
        from .netguard import default_resolver, parse_host_ip

        literal = parse_host_ip(host)
        addresses = [str(literal)] if literal else list((resolver or default_resolver)(host, port))
        if addresses and all(a in allowed_ips for a in addresses):
            return addresses[0]
    return vet_host(host, port, limits.allow_private_urls, resolver)


def _remaining(deadline: float, url: str) -> float:
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise raised(FetchError, "error.fetch_too_long", url=url)
    return remaining


def _read_body(
    resp: http.client.HTTPResponse,
    headers: dict[str, str],
    limits: Limits,
    deadline: float,
    url: str,
    conn: http.client.HTTPConnection,
) -> bytes:
    cap = limits.url_max_bytes
    length = headers.get("content-length", "").strip()
    if length.isdigit() and int(length) > cap:
        raise raised(
            FetchError, "error.page_too_large", url=url, size=f"{int(length):,}", limit=f"{cap:,}"
        )
    chunks: list[bytes] = []
    total = 0
    while True:
        remaining = _remaining(deadline, url)
        if conn.sock is not None:
            conn.sock.settimeout(min(limits.url_timeout_s, remaining))
        chunk = resp.read1(_CHUNK) if hasattr(resp, "read1") else resp.read(_CHUNK)
        if not chunk:
            break
        total += len(chunk)
        if total > cap:
            raise raised(FetchError, "error.page_larger", url=url, limit=f"{cap:,}")
        chunks.append(chunk)
    return b"".join(chunks)


__all__ = ["BlockedURLError", "FetchError", "fetch_url"]
