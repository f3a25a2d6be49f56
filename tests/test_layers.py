"""The layers of treerag_core, read from its imports: every package imports only packages of
lower layers (``LAYERS``), no package imports one that imports it back, and the store is
storage only.

The folders are the pipeline's stages (read → structure → tree → summarize → store → library
→ route → navigate → answer); the layers are who may import whom, and differ from the flow
in three places, each for a reason: ``tree`` (splitting text at headings) and ``structure``
(the strategies, and the pages readers hand them) sit below ``read``, whose format table
names each format's reader and strategies; ``navigate`` sits below ``route``, which ranks a
library's documents with the offline ranking's tools.
"""

from __future__ import annotations

import ast
import itertools
from collections import defaultdict
from pathlib import Path

CORE = Path(__file__).resolve().parents[1] / "treerag_core"
# What the storage layer may use: it keeps documents and knows nothing above them (the
# settings name the default registry and a database's pool size).
STORE_MAY_IMPORT = {"errors", "types", "settings"}
# Lowest first; a package may import those of earlier layers only (one layer's packages
# import none of each other).
LAYERS = [
    {"types", "errors", "limits", "deprecated"},
    {"settings"},
    {"text"},
    {"store"},
    {"llm"},
    {"tree"},
    {"structure"},
    {"read"},
    {"summarize"},
    {"access"},
    {"library"},
    {"navigate"},
    {"route"},
    {"evidence"},
    {"answer"},
    {"views", "jobs"},
    {"chat", "evaluation"},
    {"sync"},
    {"client"},
    {"tools", "worker"},
    {"cli"},
]


def _module(path: Path) -> tuple[list[str], bool]:
    parts = list(path.relative_to(CORE.parent).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    return (parts[:-1] if is_package else parts), is_package


def _targets(path: Path) -> set[str]:
    """The treerag_core modules ``path`` imports, as dotted names."""
    parts, is_package = _module(path)
    here = parts if is_package else parts[:-1]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                out.add(".".join(base + ([node.module] if node.module else [])))
            elif node.module:
                out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return {t for t in out if t.split(".")[0] == "treerag_core"}


def package_imports() -> dict[str, dict[str, str]]:
    """Subpackage → the subpackages it imports → one file that does (for the message)."""
    edges: dict[str, dict[str, str]] = defaultdict(dict)
    for path in CORE.rglob("*.py"):
        parts, _ = _module(path)
        if len(parts) < 2:  # the package's own __init__ and __main__ sit above every layer
            continue
        for target in _targets(path):
            other = target.split(".")[1] if "." in target else ""
            if other and other != parts[1]:
                edges[parts[1]].setdefault(other, str(path.relative_to(CORE)))
    return edges


def cycles(edges: dict[str, dict[str, str]]) -> list[list[str]]:
    """Every loop of imports among the subpackages (each found once, from its first name)."""
    found = []

    def walk(start: str, node: str, path: list[str]) -> None:
        for nxt in edges.get(node, {}):
            if nxt == start:
                found.append([*path, start])
            elif nxt not in path and nxt > start:
                walk(start, nxt, [*path, nxt])

    for start in sorted(edges):
        walk(start, start, [start])
    return found


def test_no_package_imports_itself_round_a_loop() -> None:
    edges = package_imports()
    loops = cycles(edges)
    described = [
        " → ".join(loop) + "  (" + ", ".join(edges[a][b] for a, b in itertools.pairwise(loop)) + ")"
        for loop in loops
    ]
    assert not loops, "import loops between packages:\n" + "\n".join(described)


def test_every_package_imports_only_lower_layers() -> None:
    layer = {name: n for n, names in enumerate(LAYERS) for name in names}
    packages = {path.parent.name for path in CORE.glob("*/__init__.py")}
    packages |= {path.stem for path in CORE.glob("*.py") if not path.stem.startswith("__")}
    assert packages == set(layer), f"not in LAYERS: {sorted(packages ^ set(layer))}"
    upward = [
        f"{a} → {b} ({where})"
        for a, targets in package_imports().items()
        if not a.startswith("__")
        for b, where in targets.items()
        if layer[b] >= layer[a]
    ]
    assert not upward, "imports of the same or a higher layer:\n" + "\n".join(upward)


def test_the_store_imports_nothing_above_types_and_errors() -> None:
    above = set(package_imports().get("store", {})) - STORE_MAY_IMPORT
    assert not above, f"store/ imports {sorted(above)}"


def test_the_loop_finder_finds_a_loop() -> None:
    edges = {"a": {"b": "a.py"}, "b": {"c": "b.py"}, "c": {"a": "c.py"}, "d": {"a": "d.py"}}
    assert cycles(edges) == [["a", "b", "c", "a"]]
