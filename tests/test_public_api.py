"""The public API: the seed's names, the client, the settings, the answer and document types
and the errors people catch at the top; everything else from its stage's package; old names
warning; the app importing only what the packages list as public."""

from __future__ import annotations

import ast
import importlib
import warnings
from collections import Counter
from pathlib import Path

import pytest

import treerag_core

ROOT = Path(__file__).resolve().parents[1]
# The seed's names (``../shared/seeds``): a library user's code written against it runs.
SEED_NAMES = (
    "index_document", "make_summarizer", "null_summarizer", "ask", "aask", "ask_multi",
    "aask_multi", "make_retriever", "make_async_retriever", "read_file", "parse_sections",
    "build_hierarchy",
    "flatten_tree", "build_tree_outline", "list_documents", "get_document",
    "get_document_by_id", "delete_document", "load_registry", "save_registry",
)  # fmt: skip


def test_every_public_name_is_listed_once_and_resolves() -> None:
    twice = [name for name, n in Counter(treerag_core.__all__).items() if n > 1]
    assert not twice, f"exported by two subpackages: {twice}"
    assert all(hasattr(treerag_core, name) for name in treerag_core.__all__)
    assert set(SEED_NAMES) <= set(treerag_core.__all__)


def test_the_top_level_is_the_seed_the_client_and_what_people_catch() -> None:
    assert treerag_core.__all__[: len(SEED_NAMES)] == list(SEED_NAMES) == treerag_core.SEED
    rest = set(treerag_core.__all__) - set(SEED_NAMES)
    assert {"Library", "Settings", "Answer", "TextDelta", "TreeragError"} <= rest
    errors = {n for n in rest if n.endswith("Error")}
    assert all(issubclass(getattr(treerag_core, n), treerag_core.TreeragError) for n in errors)
    assert len(treerag_core.__all__) <= 50, "the top level is for what a program starts from"


def test_no_object_is_exported_under_two_names() -> None:
    by_object: dict[int, list[str]] = {}
    for name in treerag_core.__all__:
        value = getattr(treerag_core, name)
        if callable(value) or isinstance(value, type):
            by_object.setdefault(id(value), []).append(name)
    assert [names for names in by_object.values() if len(names) > 1] == []


@pytest.mark.parametrize("old", sorted(treerag_core.DEPRECATED))
def test_an_old_name_warns_and_names_the_one_to_use(old: str) -> None:
    module, attribute, _ = treerag_core.DEPRECATED[old]
    with pytest.warns(DeprecationWarning, match=f"treerag_core.{old} is deprecated: use "):
        value = getattr(treerag_core, old)
    assert value is getattr(__import__(module, fromlist=[attribute]), attribute)
    assert old not in treerag_core.__all__


def test_a_name_that_never_was_is_an_attribute_error() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AttributeError):
            _ = treerag_core.no_such_name


def _unlisted_imports(path: Path) -> list[str]:
    """Imports of a module below a stage's package, or of a name its list does not offer."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("treerag_core"):
            module = importlib.import_module(node.module or "")
            if node.module.count(".") > 1:
                out.append(f"{where} {node.module}")
            elif hasattr(module, "__path__") or module is treerag_core:
                listed = set(getattr(module, "__all__", ()))
                out += [f"{where} {node.module}.{a.name}" for a in node.names
                        if a.name not in listed]  # fmt: skip
        elif isinstance(node, ast.Import):
            out += [f"{where} {a.name}" for a in node.names if a.name.startswith("treerag_core.")]
    return out


def test_the_app_imports_only_what_the_packages_list_as_public() -> None:
    files = [ROOT / "app.py", *sorted((ROOT / "ui").glob("*.py")), *(ROOT / "pages").glob("*.py")]
    unlisted = [line for path in files for line in _unlisted_imports(path)]
    assert unlisted == [], "imports of what is not public:\n" + "\n".join(unlisted)
