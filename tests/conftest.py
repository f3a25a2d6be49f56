"""Fixtures for the app tests: an isolated registry for AppTest, and for the browser tests
a live Streamlit server on a free loopback port plus Debian's Chromium; and the two tiers.

The tiers are set here, once, from what each test needs (not in every file): a test needs
a system program when it uses a fixture that starts one (PostgreSQL, a browser, a Streamlit
server), when its module is in MODULE_NEEDS, or when it carries ``@pytest.mark.system(...)``;
it needs the shared data when it uses the ``shared_data`` fixture. Every other test that is
not ``slow`` is ``quick``: ``bash tests/run.sh --quick`` runs those (``pytest -m quick``),
and the full tier fails (never skips) a test whose program or data is missing, naming what
to install."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import expect

from testkit import needs
from testkit.agent_registry import TeamRegistry, build_team_registry
from testkit.app_server import (  # noqa: F401 - re-exported: tests import them from conftest
    CHROMIUM_ARGS,
    PROVIDER_ENV,
    free_port,
    server_env,
    start_streamlit,
    stop_streamlit,
    streamlit_server,
)
from testkit.pg_server import create_database, drop_database, running_postgres

# Playwright's expect gives up after 5 s by default; a loaded 2-core machine may need longer
# to draw a page. A wait this long is reached only when something is wrong.
expect.set_options(timeout=30_000)

ROOT = Path(__file__).resolve().parents[1]


# Fixtures that start a system program (by the name testkit.needs.PROGRAMS gives it).
FIXTURE_NEEDS = {
    "pg_admin_url": "postgresql",
    "live_server": "chromium",
    "fresh_server": "chromium",
    "page": "chromium",
}
# Modules (or one test of a module) that run a system program directly, not by a fixture.
MODULE_NEEDS = {
    "test_ocr": ("tesseract",),
    "test_ocr_language": ("tesseract", "dejavu"),
    "test_browser_ocr": ("tesseract",),
    "test_browser_office": ("libreoffice",),
    "test_reverse_proxy": ("nginx",),
    "test_browser_proxy": ("nginx",),
    "test_seams::test_a_page_that_is_only_an_image_says_so": ("tesseract",),
}
# Tests that take tens of seconds (many processes, a thousand documents, 50 MB inputs):
# the full tier only, so that the quick tier stays quick. A module, or module::test.
SLOW = {
    "test_bad_inputs",  # its corpus alone (a zip bomb, 50 MB of text, …) takes half a minute
    "test_concurrency",
    "test_library::test_the_right_document_among_1000_look_alikes",
    "test_access_store::test_audit_entries_from_concurrent_processes_are_never_lost",
    "test_registry::test_several_processes_writing_one_registry_lose_nothing",
    "test_readers_email::test_bad_mail_is_refused_or_bounded_and_nothing_stored_changes",
    "test_readers_office::test_a_million_row_sheet_is_cut_with_a_section_saying_so",
    "test_computed_answers::test_a_sheet_of_50000_rows_answers_sums_averages_and_counts",
    # Seconds each: a killed process, a refused connection's wait, bombs, a watch's settling.
    "test_registry::test_process_killed_mid_save_leaves_previous_registry_intact",
    "test_registry::test_an_unreachable_database_is_a_typed_error_that_hides_the_password",
    "test_readers_epub::test_bad_books_are_refused_and_nothing_stored_changes",
    "test_readers_office::test_zip_bomb_and_encrypted_files_are_refused",
    "test_sources_cli::test_a_watched_folder_is_synced_after_its_changes_settle",
    "test_sources_cli::test_the_watch_loop_calls_back_once_per_burst",
    "test_sources_folder::test_a_sync_killed_half_way_and_run_again_ends_in_the_same_library",
}
SLOW_FIXTURES = {"thousand"}  # test_library's library of 1,000 documents (minutes to build)
FULL_ONLY = ("browser", "system", "shared_data", "slow")


def _names(item: pytest.Item) -> tuple[str, str]:
    """``module`` and ``module::test`` (without parameters) of ``item``."""
    module = item.module.__name__ if getattr(item, "module", None) else ""
    return module, f"{module}::{getattr(item, 'originalname', item.name)}"


def _needs(item: pytest.Item) -> set[str]:
    """The system programs ``item`` runs."""
    wanted = {FIXTURE_NEEDS[f] for f in getattr(item, "fixturenames", ()) if f in FIXTURE_NEEDS}
    callspec = getattr(item, "callspec", None)
    if callspec is not None and callspec.params.get("any_registry") == "postgresql":
        wanted.add("postgresql")
    for name in _names(item):
        wanted.update(MODULE_NEEDS.get(name, ()))
    if item.get_closest_marker("browser"):
        wanted.add("chromium")
    for mark in item.iter_markers("system"):
        wanted.update(mark.args)
    return wanted


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test with its tier (see the module's docstring); the type check first, the
    longest single test on a first run (mypy without its cache): begun last, the other
    worker waited for it."""
    items.sort(key=lambda item: _names(item)[0] != "test_types")  # stable: the rest in order
    for item in items:
        wanted = _needs(item)
        if wanted and not item.get_closest_marker("system"):
            item.add_marker(pytest.mark.system(*sorted(wanted)))
        fixtures = set(getattr(item, "fixturenames", ()))
        if "shared_data" in fixtures:
            item.add_marker(pytest.mark.shared_data)
        if any(name in SLOW for name in _names(item)) or fixtures & SLOW_FIXTURES:
            item.add_marker(pytest.mark.slow)
        if not any(item.get_closest_marker(name) for name in FULL_ONLY):
            item.add_marker(pytest.mark.quick)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A system program the test runs is missing: fail, naming the packages (never skip)."""
    problems = [needs.missing_program(name) for name in sorted(_needs(item))]
    if any(problems):
        pytest.fail("\n".join(p for p in problems if p), pytrace=False)


@pytest.fixture(scope="session")
def shared_data():  # noqa: ANN201 - the module testkit.needs
    """The shared data (``shared/`` beside the checkout) and Debian's documents, through
    ``testkit.needs``: a missing file fails the test with what to install or where to put it.
    A test using this fixture is in the full tier only."""
    return needs


@dataclass
class RegistryUnderTest:
    """One registry of either backend: ``url`` is what the tests pass as ``registry_path``."""

    kind: str  # "tinydb" or "postgresql"
    url: str
    folder: Path  # the test's temp folder (the registry file's folder for TinyDB)

    @property
    def is_file(self) -> bool:
        return self.kind == "tinydb"


@pytest.fixture(scope="session")
def pg_admin_url() -> Iterator[str]:
    """One real PostgreSQL server for the whole run (Debian's package, a temp folder, a free
    loopback port); each test gets its own database on it."""
    with running_postgres() as url:
        yield url


@pytest.fixture
def pg_url(pg_admin_url: str) -> Iterator[str]:
    """A fresh, empty database on the test server, dropped after the test."""
    url = create_database(pg_admin_url)
    try:
        yield url
    finally:
        drop_database(pg_admin_url, url)


@pytest.fixture(params=["tinydb", "postgresql"])
def any_registry(request: pytest.FixtureRequest, tmp_path: Path) -> RegistryUnderTest:
    """The same test against the registry file and against a PostgreSQL database."""
    if request.param == "tinydb":
        return RegistryUnderTest("tinydb", str(tmp_path / "reg.json"), tmp_path)
    return RegistryUnderTest("postgresql", request.getfixturevalue("pg_url"), tmp_path)


@pytest.fixture
def app_registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """TREERAG_REGISTRY in a temp dir, no provider configured, no .env in the cwd."""
    for name in (*PROVIDER_ENV, "TREERAG_AUTH", "TREERAG_ADMINS"):
        monkeypatch.delenv(name, raising=False)
    registry = tmp_path / "registry" / "indexed_docs.json"
    registry.parent.mkdir()
    monkeypatch.setenv("TREERAG_REGISTRY", str(registry))
    monkeypatch.chdir(tmp_path)
    return registry


@pytest.fixture(scope="session")
def agent_team(tmp_path_factory: pytest.TempPathFactory, shared_data) -> TeamRegistry:  # noqa: ANN001
    """The team registry of the agent tool tests (the shared bench's 10-Q and a memo),
    indexed once for the whole run: the tools, LangChain and MCP modules only read it. A
    test that changes a registry must build or copy its own."""
    return build_team_registry(tmp_path_factory.mktemp("agent-team"))


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """One app server shared by the browser tests."""
    with streamlit_server(tmp_path_factory.mktemp("live")) as server:
        yield server


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[dict[str, str]]:
    """A server no browser has visited yet (a first request behaves differently)."""
    with streamlit_server(tmp_path) as server:
        yield server


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """Debian's Chromium (Playwright cannot download its own here), headless and quiet."""
    return {
        **browser_type_launch_args,
        "executable_path": "/usr/bin/chromium",
        "args": CHROMIUM_ARGS,
    }


SAMPLE_MD = """# Introduction
Treerag indexes documents. Alice Smith wrote it in 2024.

## Scope
The scope covers PDF and Markdown files.

# Methods
We use BM25 ranking for offline navigation.

## Data
The data came from SEC filings of 3M Company. Revenue was $32 billion.
"""


@pytest.fixture
def sample_doc(app_registry: Path, tmp_path: Path) -> dict:
    """A small Markdown document indexed with the offline engine into the app registry."""
    from treerag_core import index_document
    from treerag_core.summarize.summarizers import make_summarizer

    source = tmp_path / "sample.md"
    source.write_text(SAMPLE_MD)
    return index_document(
        str(source),
        summarizer=make_summarizer(None),
        registry_path=str(app_registry),
        verbose=False,
    )


@pytest.fixture
def make_app(app_registry: Path):  # noqa: ANN201 - returns a factory
    """``make_app(page=None)``: an AppTest of app.py, run once, optionally on a page."""
    from streamlit.testing.v1 import AppTest

    def factory(page: str | None = None) -> AppTest:
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
        at.run()
        if page:
            at.switch_page(page)
            at.run()
        return at

    return factory


def texts(at) -> str:  # noqa: ANN001
    """Every markdown, caption, text, subheader, error, info, success and warning value."""
    parts = []
    for kind in ("markdown", "caption", "text", "subheader", "error", "info", "success", "warning"):
        parts += [str(e.value) for e in getattr(at, kind)]
    return "\n".join(parts)


def ask(at, question: str):  # noqa: ANN001, ANN201
    """Ask in the chat page's question box, then show the whole page.

    The box reruns only the fragment where the answer goes; AppTest then holds only that
    fragment's elements, where a browser merges them into the page it shows. The
    whole-page run after it draws what the browser shows (and what a reload would).
    """
    at.chat_input[0].set_value(question).run()
    if not at.exception:
        at.run()
    return at


@pytest.fixture(autouse=True)
def settings_of_the_test(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test starts from the defaults: no setting from this machine's environment or a
    ``.env`` file in the working directory reaches it (a test sets what it needs)."""
    from treerag_core.settings import Settings, env_name

    for field in Settings.model_fields:
        monkeypatch.delenv(env_name(field), raising=False)
    monkeypatch.setitem(Settings.model_config, "env_file", None)
