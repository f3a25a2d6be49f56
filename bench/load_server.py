"""The server side of ``bench.load``: its documents, the Streamlit server, its CPU time."""

from __future__ import annotations

import functools
import json
import os
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.request
from collections.abc import Mapping
from pathlib import Path

FILINGS = Path(__file__).resolve().parents[2] / "shared" / "bench" / "financebench" / "pdfs"
# The servers' compiled bytecode, outside the source tree (bench/out is not tracked): a
# deployed server runs compiled modules (pip compiles what it installs, and an app run from
# a checkout writes its own on first start), so a fresh server must not compile ~270 of them
# at every start, as it did when the environment said PYTHONDONTWRITEBYTECODE.
PYCACHE = Path(__file__).resolve().parents[1] / "bench" / "out" / "pycache"
# Three 10-Ks and what each person asks about one of them: a question, a follow-up, another
# question; each answer must show the figure (the offline engine's extractive answer).
DOCS = [
    {
        "file": "AMAZON_2019_10K.pdf",
        "questions": [
            ("What were Amazon's total net sales in 2019?", "280,522"),
            ("And in 2018?", "232,887"),
            ("What were Amazon's total assets at the end of 2019?", "225,248"),
        ],
    },
    {
        "file": "NIKE_2019_10K.pdf",
        "questions": [
            ("What were Nike's total current assets at the end of FY2019?", "16,525"),
            ("What about total shareholders' equity?", "9,040"),
            ("What were Nike's total current liabilities at the end of FY2019?", "7,866"),
        ],
    },
    {
        "file": "PEPSICO_2022_10K.pdf",
        "questions": [
            ("What was PepsiCo's operating profit in 2022?", "11,512"),
            ("And 2021?", "11,162"),
            ("How many people did PepsiCo employ?", "315,000"),
        ],
    },
]
INDEX = """
import json, sys
from treerag_core import index_document
from treerag_core.summarize.summarizers import offline_summarizer
out = []
for path in sys.argv[2:]:
    doc = index_document(path, summarizer=offline_summarizer, registry_path=sys.argv[1],
                         verbose=False)
    out.append(doc["doc_id"])
print(json.dumps(out))
"""


def prepare_registry(root: Path, registry: Path) -> list[dict]:
    """Index the three filings with the app at ``root`` (its own treerag_core)."""
    paths = [str(FILINGS / d["file"]) for d in DOCS]
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        raise SystemExit(f"bench filings not found: {missing} (put shared/ beside the checkout)")
    done = subprocess.run(
        [sys.executable, "-c", INDEX, str(registry), *paths],
        cwd=root, env={**os.environ, "PYTHONPATH": str(root)}, capture_output=True, text=True,
        check=True,
    )  # fmt: skip
    ids = json.loads(done.stdout.strip().splitlines()[-1])
    return [{**d, "doc_id": doc_id} for d, doc_id in zip(DOCS, ids, strict=True)]


@functools.cache
def compile_bytecode(root: Path) -> None:
    """Compile the app at ``root`` and everything its interpreter imports from (the
    standard library, the venv) into ``PYCACHE``, once per run: about a minute the first
    time, a few seconds once it is up to date. A server started with
    ``PYTHONPYCACHEPREFIX=PYCACHE`` then reads bytecode, as a deployed one does."""
    paths = sysconfig.get_paths()
    sources = sorted({paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")})
    sources += [str(root / name) for name in ("app.py", "pages", "ui", "treerag_core")]
    # Not checked: some of the standard library's test files do not compile (on purpose).
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", "-j", "0", *sources],
        env={**bytecode_env(os.environ), "PYTHONPATH": str(root)},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def bytecode_env(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` with bytecode read from, and written to, ``PYCACHE``."""
    out = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    out["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    return out


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (all its threads) and of its children, ended
    (``/proc/<pid>/stat``'s children fields) or still running (every descendant's own)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat.rsplit(")", 1)[1].split()
    ended = (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")
    return _stat_cpu(stat) + ended + sum(_stat_cpu(s) for s in _descendant_stats(pid))


def _descendant_stats(pid: int) -> list[str]:
    """The ``/proc/<pid>/stat`` lines of every process below ``pid`` (a reader's helper)."""
    stats: dict[int, tuple[int, str]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:  # the process ended meanwhile
                continue
            stats[int(entry.name)] = (int(stat.rsplit(")", 1)[1].split()[1]), stat)
    found, below = [], {pid}
    for _ in range(8):  # a few levels deep is plenty (a reader's subprocess and its own)
        level = [p for p, (parent, _) in stats.items() if parent in below and p not in below]
        if not level:
            break
        below.update(level)
        found += [stats[p][1] for p in level]
    return found


def browser_cpu_seconds() -> dict[str, float]:
    """CPU time of every Chromium process now running, by pid: the people's side of the
    load shares the machine's cores with the server, so it is measured too."""
    seconds = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # the process ended meanwhile
            continue
        if stat[stat.index("(") + 1 : stat.rindex(")")].startswith("chrom"):
            seconds[entry.name] = _stat_cpu(stat)
    return seconds


def _stat_cpu(stat: str) -> float:
    """User + system seconds from a ``/proc/<pid>/stat`` line (after the command's name)."""
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stored_turns(threads_dir: Path) -> int:
    """Turns kept in the store's conversation files (0 when the app keeps none)."""
    total = 0
    for path in threads_dir.glob("*/*.json"):
        if path.name == "index.json":
            continue
        total += len(json.loads(path.read_text()).get("turns") or [])
    return total


class Server:
    """``streamlit run app.py`` of the app at ``root`` on a free loopback port."""

    def __init__(self, root: Path, workdir: Path, env: dict[str, str] | None = None) -> None:
        """``env``: settings over the offline engine's (a model's endpoint)."""
        self.root, self.workdir, self.env = root, workdir, env or {}
        self.registry = workdir / "indexed_docs.json"
        threads = workdir / "indexed_docs.threads"
        self.threads_dir: Path | None = threads
        self.turns_before = 0
        self.keeps_threads = True

    def __enter__(self) -> Server:
        port = free_port()
        compile_bytecode(self.root)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "OLLAMA"))}
        env = bytecode_env(env)
        env.update(TREERAG_REGISTRY=str(self.registry), TREERAG_PROVIDER="offline",
                   TREERAG_AUTH="none", PYTHONPATH=str(self.root))  # fmt: skip
        env.update(self.env)
        self.log = open(self.workdir / "server.log", "wb")  # noqa: SIM115 - closed in __exit__
        self.process = subprocess.Popen(
            [
                sys.executable, "-m", "streamlit", "run", str(self.root / "app.py"),
                "--server.headless", "true", "--server.port", str(port),
                "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
            ],
            cwd=self.root, env=env, stdout=self.log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        self.pid = self.process.pid
        self.url = f"http://127.0.0.1:{port}"
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/_stcore/health", timeout=2) as resp:
                    if resp.status == 200:
                        return self
            except OSError:
                time.sleep(0.3)
        self.__exit__()
        raise SystemExit(f"the server did not start; see {self.workdir / 'server.log'}")

    def __exit__(self, *exc: object) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()
