"""The app under a real Streamlit server on a loopback port, and the flags Debian's Chromium
is started with: one home for the browser tests (through ``tests/conftest.py``) and for the
benchmarks that drive the app in a browser (``bench.tree_screenshots``, ``bench.walkthrough``).

The server is started with ``streamlit run app.py`` on a free 127.0.0.1 port, with no model
and no sign-in settings from the caller's environment, and is ready once
``/_stcore/health`` answers; its output goes to ``server.log`` in the work folder.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]
PROVIDER_ENV = (
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "OLLAMA_HOST",
    "TREERAG_PROVIDER",
    "TREERAG_SEARCH_MODEL",
    "TREERAG_ANSWER_MODEL",
)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SERVER_START_S = 60  # a cold Streamlit import takes ~10 s on a loaded 2-core machine


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_streamlit(
    workdir: Path, env: dict[str, str], port: int | None = None
) -> tuple[subprocess.Popen, str, IO[bytes]]:
    """``streamlit run app.py`` on a free 127.0.0.1 port (or ``port``) with ``env``;
    returns ``(process, url, log file)`` once ``/_stcore/health`` answers."""
    port = port or free_port()
    log = open(workdir / "server.log", "wb")  # noqa: SIM115 - closed by stop_streamlit
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
            "--server.headless", "true", "--server.port", str(port),
            "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
        ],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + SERVER_START_S
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as resp:
                if resp.status == 200:
                    break
        except OSError:
            time.sleep(0.3)
    else:
        stop_streamlit(proc, log)
        raise RuntimeError("Streamlit did not start; see " + str(workdir / "server.log"))
    return proc, url, log


def stop_streamlit(proc: subprocess.Popen, log: IO[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


def server_env(registry: Path, **extra: str) -> dict[str, str]:
    """The environment minus model settings and sign-in settings, plus ``extra``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in PROVIDER_ENV and not k.startswith(("TREERAG_AUTH", "TREERAG_ADMINS"))
    }
    env["TREERAG_REGISTRY"] = str(registry)
    env.update(extra)
    return env


@contextmanager
def streamlit_server(workdir: Path, **extra_env: str) -> Iterator[dict[str, str]]:
    """``streamlit run app.py`` on a free 127.0.0.1 port with its own registry
    (``workdir/indexed_docs.json``), stopped after."""
    registry = workdir / "indexed_docs.json"
    proc, url, log = start_streamlit(workdir, server_env(registry, **extra_env))
    try:
        yield {"url": url, "registry": str(registry), "workdir": str(workdir)}
    finally:
        stop_streamlit(proc, log)
