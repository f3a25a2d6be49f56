"""A real sign-in proxy for the tests: Debian's nginx in front of an app on loopback.

Each test person gets a listening port of their own whose server block sets that person's
identity, then includes ``deploy/nginx/treerag-location.conf``, the very file a deployment
includes (there the identity comes from the sign-in step instead). The browser talks only
to its person's port, as a person's browser talks only to the proxy; nginx adds the
headers to every request, the WebSocket upgrade included. ``tests/run.sh`` installs nginx.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from conftest import stop_streamlit

ROOT = Path(__file__).resolve().parents[1]
LOCATION_CONF = ROOT / "deploy" / "nginx" / "treerag-location.conf"
# The identity variables the location file reads, by the header each one becomes.
IDENTITY_VARIABLES = {
    "X-Forwarded-User": "treerag_user",
    "X-Forwarded-Email": "treerag_email",
    "X-Forwarded-Groups": "treerag_groups",
}
START_TIMEOUT_S = 30


def nginx_binary() -> str | None:
    """Debian puts nginx in /usr/sbin, which is not on every user's PATH."""
    fallback = "/usr/sbin/nginx"
    return shutil.which("nginx") or (fallback if os.access(fallback, os.X_OK) else None)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _quoted(value: str) -> str:
    if any(c in value for c in '"\\$;{}\n'):
        raise ValueError(f"not a plain header value: {value!r}")
    return f'"{value}"'


def _server_block(port: int, identity: Mapping[str, str]) -> str:
    unknown = set(identity) - set(IDENTITY_VARIABLES)
    if unknown:
        raise ValueError(f"no identity variable for {sorted(unknown)}")
    sets = "".join(
        f"        set ${var} {_quoted(identity.get(header, ''))};\n"
        for header, var in IDENTITY_VARIABLES.items()
    )
    return (
        f"    server {{\n        listen 127.0.0.1:{port};\n{sets}"
        f"        include {LOCATION_CONF};\n    }}\n"
    )


def nginx_config(workdir: Path, upstream_port: int, ports: Mapping[int, Mapping[str, str]]) -> str:
    """The whole nginx.conf: everything nginx writes stays in ``workdir``."""
    temp = "".join(
        f"    {kind}_temp_path {workdir / kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    servers = "".join(_server_block(port, identity) for port, identity in ports.items())
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers write the temp folders
    return (
        f"{user}worker_processes 1;\npid {workdir / 'nginx.pid'};\n"
        f"error_log {workdir / 'error.log'} info;\n"
        "events { worker_connections 256; }\n"
        "http {\n"
        f"    access_log {workdir / 'access.log'};\n{temp}"
        '    map $http_upgrade $treerag_connection { default upgrade; "" close; }\n'
        f"    upstream treerag_streamlit {{ server 127.0.0.1:{upstream_port}; }}\n"
        f"{servers}}}\n"
    )


def _wait_listening(ports: list[int], proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    pending = list(ports)
    while pending and time.monotonic() < deadline and proc.poll() is None:
        try:
            with socket.create_connection(("127.0.0.1", pending[0]), timeout=1):
                pending.pop(0)
        except OSError:
            time.sleep(0.05)
    if pending:
        raise RuntimeError(f"nginx did not listen on {pending}; exit code {proc.poll()}")


@contextmanager
def running_proxy(
    workdir: Path, upstream_port: int, people: Mapping[str, Mapping[str, str]]
) -> Iterator[dict[str, str]]:
    """nginx on one free loopback port per person in ``people`` (a name → the identity
    headers the proxy sets for them), in front of 127.0.0.1:``upstream_port``; yields each
    person's base URL, and stops nginx after."""
    binary = nginx_binary()
    if binary is None:
        raise RuntimeError("nginx is not installed: tests/run.sh installs Debian's nginx-light")
    workdir.mkdir(parents=True, exist_ok=True)
    ports = {name: _free_port() for name in people}
    conf = workdir / "nginx.conf"
    conf.write_text(
        nginx_config(workdir, upstream_port, {ports[n]: people[n] for n in people}),
        encoding="utf-8",
    )
    log = open(workdir / "nginx.out", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [binary, "-p", str(workdir), "-c", str(conf), "-e", str(workdir / "error.log"),
         "-g", "daemon off;"],
        stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        _wait_listening(list(ports.values()), proc)
        yield {name: f"http://127.0.0.1:{port}" for name, port in ports.items()}
    finally:
        stop_streamlit(proc, log)  # any server process: terminate, then kill, close the log
