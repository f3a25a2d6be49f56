"""One Settings: every setting declared once, read from the environment and ``.env`` the same
way by every entry point, secrets never shown, a bad value a ConfigError naming its variable,
and the configuration page made from it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from treerag_core import ConfigError, Settings
from treerag_core.access.identity import auth_settings
from treerag_core.cli.configuration import markdown
from treerag_core.settings import env_name, load

ROOT = Path(__file__).resolve().parents[1]


def test_the_configuration_page_is_made_from_the_settings() -> None:
    page = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert page == markdown(), (
        "run: python -m treerag_core settings --markdown > docs/configuration.md"
    )
    for field in Settings.model_fields:
        assert f"`{env_name(field)}`" in page


def test_every_variable_the_code_reads_is_a_setting() -> None:
    """No TREERAG_ variable is read anywhere but through Settings."""
    core = [p for p in (ROOT / "treerag_core").rglob("*.py") if p.name != "settings.py"]
    ui = [*(ROOT / "ui").glob("*.py"), *(ROOT / "pages").glob("*.py"), ROOT / "app.py"]
    read = re.compile(r"(environ(\.get)?\(|environ\[|getenv\()\s*[\"']TREERAG_")
    reads = [str(p.relative_to(ROOT)) for p in core + ui if read.search(p.read_text("utf-8"))]
    assert reads == []


def test_environment_and_dotenv_read_alike(tmp_path: Path, monkeypatch) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("TREERAG_REGISTRY=from-dotenv.json\nTREERAG_MAX_PAGES=9\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(Settings.model_config, "env_file", ".env")
    assert load().registry == "from-dotenv.json" and load().limits().max_pages == 9
    monkeypatch.setenv("TREERAG_MAX_PAGES", "12")  # the environment wins over .env
    assert load().limits().max_pages == 12
    assert load(max_pages=3).limits().max_pages == 3  # and a value given wins over both


def test_secrets_never_print(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-123456")
    monkeypatch.setenv("TREERAG_MCP_TOKEN", "token-secret-0123456789")
    settings = load()
    shown = repr(settings) + str(settings) + str(settings.model_dump())
    assert "sk-secret" not in shown and "token-secret" not in shown
    assert settings.secret("openai_api_key") == "sk-secret-123456"


@pytest.mark.parametrize(
    ("variable", "value"),
    [("TREERAG_MAX_PAGES", "many"), ("TREERAG_AUTH", "ldap"), ("TREERAG_SEARCH_MODE", "guess")],
)
def test_a_bad_value_is_a_config_error_naming_its_variable(monkeypatch, variable, value) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigError, match=variable):
        load()


def test_sign_in_settings_come_from_the_same_object(monkeypatch) -> None:
    monkeypatch.setenv("TREERAG_AUTH", "proxy")
    monkeypatch.setenv("TREERAG_ADMINS", "Ops, ana@example.com")
    auth = auth_settings()
    assert auth.mode == "proxy" and auth.admins == frozenset({"ops", "ana@example.com"})


def test_the_command_line_takes_the_registry_from_dotenv(tmp_path: Path) -> None:
    """TREERAG_REGISTRY in a .env file reaches the CLI, not only the app."""
    doc = tmp_path / "notes.md"
    doc.write_text("# Leave\nEmployees get 25 days of leave.\n")
    (tmp_path / ".env").write_text("TREERAG_REGISTRY=team.json\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TREERAG_")}
    env["PYTHONPATH"] = str(ROOT)
    run = [sys.executable, "-m", "treerag_core"]
    subprocess.run([*run, "index", str(doc)], cwd=tmp_path, env=env, check=True,
                   capture_output=True)  # fmt: skip
    assert (tmp_path / "team.json").exists() and not (tmp_path / "indexed_docs.json").exists()
