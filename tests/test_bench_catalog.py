"""The benchmark command: every benchmark is in the catalog, runs by its name, writes its
results through the one writer, and bench/README.md shows the latest headlines."""

from __future__ import annotations

import ast
import importlib.util
import json
from pathlib import Path

import pytest

from bench.__main__ import main
from bench.catalog import CATALOG, readme
from bench.record import RESULTS, as_json, write_results

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.mark.parametrize("bench", CATALOG, ids=lambda b: b.name)
def test_every_benchmark_is_a_module_with_a_main(bench) -> None:  # noqa: ANN001
    spec = importlib.util.find_spec(bench.module)
    assert spec and spec.origin, bench.module
    tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
    assert any(isinstance(n, ast.FunctionDef) and n.name == "main" for n in tree.body)
    if bench.results:
        assert (RESULTS / f"{bench.results}.json").exists(), bench.results


def test_every_module_with_a_main_is_in_the_catalog_or_a_worker() -> None:
    """A benchmark runnable as ``python -m bench.X`` is also ``python -m bench X``."""
    listed = {b.module.split(".")[-1] for b in CATALOG}
    helpers = {"__main__", "docs_tables", "structure_peer", "tree_quality_worker",
               "worker_ours", "worker_peer"}  # fmt: skip
    runnable = {p.stem for p in BENCH.glob("*.py") if '__name__ == "__main__"' in p.read_text()}
    assert runnable - helpers == listed


def test_only_the_writer_writes_results() -> None:
    """No benchmark writes a results file itself: bench/record.py is the one writer."""
    for path in BENCH.glob("*.py"):
        if path.name != "record.py":
            for line in path.read_text(encoding="utf-8").splitlines():
                writes = "write_text(" in line or "json.dump(" in line
                assert not (writes and "results" in line.lower()), f"{path.name}: {line}"


def test_the_readme_shows_the_latest_results() -> None:
    assert (BENCH / "README.md").read_text(encoding="utf-8") == readme(), (
        "bench/README.md is stale: run python -m bench readme"
    )


def test_list_and_an_unknown_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    assert "financebench" in capsys.readouterr().out
    assert main(["no-such-bench"]) == 2
    assert "python -m bench list" in capsys.readouterr().err


def test_the_writer_writes_both_files_in_one_format(tmp_path: Path) -> None:
    data = {"name": "Zürich", "path": tmp_path, "rows": [1, 2]}
    json_path, md_path = write_results("x", data, ["# X", "", "| a |"], tmp_path)
    assert json_path.read_text(encoding="utf-8") == as_json(data)
    assert json.loads(json_path.read_text(encoding="utf-8"))["path"] == str(tmp_path)
    assert "Zürich" in json_path.read_text(encoding="utf-8")
    assert md_path.read_text(encoding="utf-8") == "# X\n\n| a |\n"


def test_help_of_a_benchmark_without_options_runs_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = (RESULTS / "access.json").read_bytes()
    assert main(["access", "--help"]) == 0
    assert "access rules cost" in capsys.readouterr().out
    assert (RESULTS / "access.json").read_bytes() == before
