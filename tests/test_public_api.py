"""The public API: one name per concept, made of the subpackages' own lists, old names
warning, and the app importing nothing else."""

from __future__ import annotations

import ast
import warnings
from collections import Counter
from pathlib import Path

import pytest

import treerag_core

ROOT = Path(__file__).resolve().parents[1]
# The seed's names (``../shared/seeds``): a library user's code written against it runs.
SEED_NAMES = (
    "index_document", "make_summarizer", "null_summarizer", "ask", "aask", "ask_multi",
    "aask_multi", "make_retriever", "read_file", "parse_sections", "build_hierarchy",
    "flatten_tree", "build_tree_outline", "list_documents", "get_document",
    "get_document_by_id", "delete_document", "load_registry", "save_registry",
)  # fmt: skip


def test_every_public_name_is_listed_once_and_resolves() -> None:
    twice = [name for name, n in Counter(treerag_core.__all__).items() if n > 1]
    assert not twice, f"exported by two subpackages: {twice}"
    assert all(hasattr(treerag_core, name) for name in treerag_core.__all__)
    assert set(SEED_NAMES) <= set(treerag_core.__all__)


def test_the_list_is_made_of_the_subpackages_own() -> None:
    made = [n for module in treerag_core.PUBLIC_MODULES for n in module.__all__]
    assert treerag_core.__all__ == made
    for module in treerag_core.PUBLIC_MODULES:
        for name in module.__all__:
            assert getattr(treerag_core, name) is getattr(module, name)


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


def _deep_imports(path: Path) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("treerag_core."):
            out.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.module}")
        elif isinstance(node, ast.Import):
            out += [f"{path.relative_to(ROOT)}:{node.lineno} {a.name}" for a in node.names
                    if a.name.startswith("treerag_core.")]  # fmt: skip
    return out


def test_the_app_imports_only_the_public_api() -> None:
    files = [ROOT / "app.py", *sorted((ROOT / "ui").glob("*.py")), *(ROOT / "pages").glob("*.py")]
    deep = [line for path in files for line in _deep_imports(path)]
    assert deep == [], "deep imports:\n" + "\n".join(deep)
