"""Run one measurement in a fresh subprocess (ours or treerag's) and collect medians.

Why subprocesses: a figure like peak RSS belongs to one process, and the two libraries
need different interpreters (treerag lives in its own throwaway venv). Each call returns
the worker's JSON line as a dict, or ``{"error": ...}`` when it failed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
RESULTS = BENCH / "results"
PEER_SPEC = "treerag[openai]==0.1.5"


@dataclass(frozen=True)
class Side:
    """How to start one library's worker: the interpreter and the worker's entry point."""

    name: str
    python: str
    entry: list[str]

    def command(self, op: str, *args: str) -> list[str]:
        return [self.python, *self.entry, op, *args]


def code_stamp() -> str:
    """The version of treerag_core this checkout holds (its tree in git, and whether files
    were changed since): a registry prefilled by other code is not measured again."""
    tree = subprocess.run(["git", "rev-parse", "HEAD:treerag_core"], cwd=ROOT,
                          capture_output=True, text=True).stdout.strip()  # fmt: skip
    dirty = subprocess.run(["git", "status", "--porcelain", "treerag_core"], cwd=ROOT,
                           capture_output=True, text=True).stdout.strip()  # fmt: skip
    return f"{tree}{'+changes' if dirty else ''}"


def ours() -> Side:
    return Side("ours", sys.executable, ["-m", "bench.worker_ours"])


def peer(venv_dir: Path) -> Side:
    return Side("treerag", str(venv_dir / "bin" / "python"), [str(BENCH / "worker_peer.py")])


def ensure_peer_venv(venv_dir: Path, log: Any = print) -> Path:
    """A throwaway venv with treerag 0.1.5 (+ its OpenAI extra for the summarizer figure)."""
    ensure_venv(venv_dir, PEER_SPEC, log)
    return venv_dir


def ensure_venv(venv_dir: Path, spec: str, log: Any = print) -> Path:
    """The python of a throwaway venv holding ``spec`` (``name[extras]==version``): a peer
    is measured in its own interpreter, never mixed into ours. A venv that already holds
    that version is kept (installing takes minutes); any other is made again."""
    python = venv_dir / "bin" / "python"
    name, version = spec.split("==")
    name = name.split("[")[0]
    probe = [str(python), "-c", f"import importlib.metadata as m; print(m.version({name!r}))"]
    if python.exists():
        done = subprocess.run(probe, capture_output=True, text=True)
        if done.returncode == 0 and done.stdout.strip() == version:
            return python
        shutil.rmtree(venv_dir, ignore_errors=True)
    log(f"creating {venv_dir} and installing {spec} …")
    venv.EnvBuilder(with_pip=True, clear=True).create(venv_dir)
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", spec],
        check=True,
    )
    return python


def run(side: Side, op: str, *args: str, timeout: float = 900) -> dict[str, Any]:
    """One measurement in a fresh process; niced so the other developers' work goes first."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"}
    command = ["nice", "-n", "10", *side.command(op, *args)]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=env
        )
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        return {"error": f"exit {done.returncode}: {tail[0][:300]}"}
    return json.loads(lines[-1])


def repeat(
    side: Side, runs: int, op: str, *args: str, timeout: float = 900
) -> list[dict[str, Any]]:
    """``runs`` fresh-process measurements of the same operation."""
    return [run(side, op, *args, timeout=timeout) for _ in range(runs)]


def tree_size(path: Path) -> int:
    """Bytes of a file, or of every file under a folder."""
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def copy_registry(src: Path, dst: Path) -> None:
    """Reset a run's registry folder from the pristine 49-document one."""
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst)
