"""Which network addresses a URL fetch may connect to: pure decisions, no sockets.

treerag runs as a team-hosted service, so fetching a user's URL must not become a way to
reach the server's own network (SSRF): loopback, private ranges, link-local, cloud metadata
endpoints and other special addresses are refused unless ``Limits.allow_private_urls``.
The fetcher resolves the host once, vets every address here, then connects to the vetted
address itself, so a second DNS answer cannot swap in a private address.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Sequence
from urllib.parse import SplitResult, urlsplit

from ...errors import BlockedURLError
from ...text.messages import Phrase, raised

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
# resolver(host, port) -> list of IP strings; default uses socket.getaddrinfo.
Resolver = Callable[[str, int], Sequence[str]]

_METADATA = {
    ipaddress.ip_address("169.254.169.254"),
    ipaddress.ip_address("169.254.170.2"),
    ipaddress.ip_address("100.100.100.200"),
    ipaddress.ip_address("fd00:ec2::254"),
}
_CGNAT = ipaddress.ip_network("100.64.0.0/10")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")


def parse_host_ip(host: str) -> IPAddress | None:
    """The IP a host string denotes, including decimal/hex/octal IPv4 spellings, else None.

    ``2130706433``, ``0x7f.1`` and ``017700000001`` are all 127.0.0.1 to the C resolver, so
    they are parsed with ``inet_aton`` semantics instead of being treated as names.
    """
    host = host.strip().strip("[]")
    if not host:
        return None
    try:
        return ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        pass
    if all(c in "0123456789abcdefxABCDEFX." for c in host) and any(c.isdigit() for c in host):
        try:
            return ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return None
    return None


def check_address(ip: IPAddress | str, allow_private: bool = False) -> str | None:
    """Why connecting to ``ip`` is refused (English, said again in the person's language
    inside the refusal), or None when it is a public address."""
    addr = ipaddress.ip_address(ip) if isinstance(ip, str) else ip
    if isinstance(addr, ipaddress.IPv6Address):
        embedded = addr.ipv4_mapped or addr.sixtofour
        if embedded is None and addr in _NAT64:
            embedded = ipaddress.IPv4Address(int(addr) & 0xFFFFFFFF)
        if embedded is not None:
            reason = check_address(embedded, allow_private)
            return Phrase("address.embedded", reason=reason, address=str(addr)) if reason else None
    if addr in _METADATA:
        return Phrase("address.metadata", address=str(addr))  # refused even when private is allowed
    if addr.is_unspecified:
        return Phrase("address.unspecified", address=str(addr))
    if addr.is_multicast:
        return Phrase("address.multicast", address=str(addr))
    if allow_private:
        return None
    if addr.is_loopback:
        return Phrase("address.loopback", address=str(addr))
    if addr.is_link_local:
        return Phrase("address.link_local", address=str(addr))
    if isinstance(addr, ipaddress.IPv4Address) and addr in _CGNAT:
        return Phrase("address.cgnat", address=str(addr))
    if addr.is_private:
        return Phrase("address.private", address=str(addr))
    if addr.is_reserved or not addr.is_global:
        return Phrase("address.reserved", address=str(addr))
    return None


def split_url(url: str) -> SplitResult:
    """Parse and validate an http(s) URL: no other schemes, no credentials, a host present."""
    try:
        parts = urlsplit(url.strip())
        _ = parts.port  # raises on a malformed port
    except ValueError as exc:
        raise raised(BlockedURLError, "error.url_invalid", url=repr(url), reason=str(exc)) from exc
    if parts.scheme.lower() not in {"http", "https"}:
        raise raised(BlockedURLError, "error.url_scheme", scheme=repr(parts.scheme))
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise raised(BlockedURLError, "error.url_credentials")
    if not parts.hostname:
        raise raised(BlockedURLError, "error.url_no_host", url=repr(url))
    return parts


def default_resolver(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


def vet_host(host: str, port: int, allow_private: bool, resolver: Resolver | None = None) -> str:
    """Resolve ``host`` once, refuse it if ANY address is blocked, return the IP to connect to."""
    literal = parse_host_ip(host)
    if literal is not None:
        addresses = [str(literal)]
    else:
        try:
            addresses = list((resolver or default_resolver)(host, port))
        except (OSError, UnicodeError) as exc:
            from ...errors import FetchError

            raise raised(
                FetchError, "error.unresolved_host", host=repr(host), reason=str(exc)
            ) from exc
    if not addresses:
        from ...errors import FetchError

        raise raised(FetchError, "error.host_no_addresses", host=repr(host))
    for address in addresses:
        reason = check_address(address.split("%", 1)[0], allow_private)
        if reason:
            raise raised(BlockedURLError, "error.blocked_host", host=repr(host), reason=reason)
    return addresses[0].split("%", 1)[0]
