"""A real PostgreSQL server for the tests and the store benchmark, started in a temp folder.

Debian's ``postgresql`` package (``tests/run.sh`` installs it) gives ``initdb`` and
``pg_ctl``; the server listens on a free 127.0.0.1 port with its socket in the same temp
folder, so it never touches a system cluster. PostgreSQL refuses to run as root, so when
the tests run as root (CI) the server runs as the ``postgres`` user the package creates.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

# Connections the tests may hold at once: 8 processes x a pool each, plus the app servers.
TEST_MAX_CONNECTIONS = 300
# Durability off for the tests' speed (a crash of the test server loses nothing we need);
# the benchmark keeps the defaults so its figures compare with TinyDB's fsync'd writes.
FAST_SETTINGS = ("fsync=off", "synchronous_commit=off", "full_page_writes=off")


def postgres_bin() -> str | None:
    """The folder holding initdb and pg_ctl (the newest Debian version), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version)
    if found:
        return os.path.dirname(found[-1])
    initdb = shutil.which("initdb")
    return os.path.dirname(initdb) if initdb else None


def _version(path: str) -> float:
    try:
        return float(path.split("/")[4])
    except (IndexError, ValueError):
        return 0.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _as_server_user(argv: list[str]) -> list[str]:
    """``argv`` run as ``postgres`` when we are root (initdb refuses root)."""
    if os.geteuid() != 0:
        return argv
    return ["runuser", "-u", "postgres", "--", *argv]


@contextmanager
def running_postgres(fast: bool = True) -> Iterator[str]:
    """Start a throwaway server; yields its admin URL (``postgresql://treerag@127.0.0.1:P/postgres``)."""
    bindir = postgres_bin()
    if bindir is None:
        raise RuntimeError(
            "PostgreSQL is not installed: `apt-get install postgresql` (tests/run.sh does it)."
        )
    root = tempfile.mkdtemp(prefix="treerag-pg-")
    os.chmod(root, 0o755)
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(root, user.pw_uid, user.pw_gid)
    data, log = os.path.join(root, "data"), os.path.join(root, "server.log")
    port = _free_port()
    run = lambda argv: subprocess.run(  # noqa: E731
        _as_server_user(argv), check=True, capture_output=True, timeout=120
    )
    settings = [f"max_connections={TEST_MAX_CONNECTIONS}", *(FAST_SETTINGS if fast else ())]
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 " + " ".join(
        f"-c {s}" for s in settings
    )
    try:
        run([f"{bindir}/initdb", "-D", data, "-U", "treerag", "--auth=trust", "-E", "UTF8",
             "--no-sync", "--locale=C"])  # fmt: skip
        run([f"{bindir}/pg_ctl", "-D", data, "-l", log, "-o", options, "-w", "-t", "60", "start"])
        yield f"postgresql://treerag@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            _as_server_user([f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "-w", "stop"]),
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(root, ignore_errors=True)


def database_url(admin_url: str, name: str) -> str:
    return admin_url.rsplit("/", 1)[0] + "/" + name


def create_database(admin_url: str) -> str:
    """A new empty database on the server; returns its URL."""
    import psycopg

    name = "t_" + uuid.uuid4().hex[:16]
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return database_url(admin_url, name)


def drop_database(admin_url: str, url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    for _ in range(3):  # a pool finalised late may still hold a connection for a moment
        try:
            with psycopg.connect(admin_url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            return
        except psycopg.Error:
            time.sleep(0.2)


def query(url: str, sql: str, params: tuple = ()) -> list[tuple]:
    """Rows of one statement on its own connection (for tests' checks and set-up)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        cursor = conn.execute(sql, params)
        return cursor.fetchall() if cursor.description else []
