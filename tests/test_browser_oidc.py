"""OIDC sign-in (TREERAG_AUTH=oidc) through Streamlit's real ``st.login`` flow in Chromium.

A test identity provider (tests/oidc_provider.py) runs on 127.0.0.1; Streamlit reads the
documented ``[auth]`` settings (redirect_uri, cookie_secret, client_id, client_secret,
server_metadata_url) from a secrets.toml the test writes. The person clicks Sign in, types
a user name at the provider, comes back signed in and sees their collection's documents
only; the groups come from the ID token's ``groups`` claim.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import free_port, server_env, start_streamlit, stop_streamlit
from oidc_provider import CLIENT_ID, CLIENT_SECRET, Provider
from playwright.sync_api import Browser, Page, expect

from treerag_core.access.audit import read_audit_log
from treerag_core.access.collections import set_collection_access
from treerag_core.library.indexing import index_upload

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
USERS = {
    "hana": {"email": "hana@example.com", "groups": ["hr"]},
    "erin": {"email": "erin@example.com", "groups": ["eng"]},
}

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def oidc_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    workdir = tmp_path_factory.mktemp("oidc")
    registry = str(workdir / "indexed_docs.json")
    set_collection_access("hr", readers=["hr"], registry_path=registry)
    set_collection_access("eng", readers=["eng"], registry_path=registry)
    index_upload("salaries.md", b"# Salaries\nLevel 3 earns 90,000 euros.\n",
                 registry_path=registry, collection="hr")  # fmt: skip
    index_upload("design.md", b"# Design\nThe gateway uses a token bucket.\n",
                 registry_path=registry, collection="eng")  # fmt: skip
    provider = Provider(USERS)
    issuer = provider.start()
    port = free_port()
    secrets_file = workdir / "secrets.toml"
    secrets_file.write_text(
        "[auth]\n"
        f'redirect_uri = "http://127.0.0.1:{port}/oauth2callback"\n'
        f'cookie_secret = "{secrets.token_hex(32)}"\n'
        f'client_id = "{CLIENT_ID}"\n'
        f'client_secret = "{CLIENT_SECRET}"\n'
        f'server_metadata_url = "{issuer}/.well-known/openid-configuration"\n'
    )
    env = server_env(
        workdir / "indexed_docs.json",
        TREERAG_AUTH="oidc",
        STREAMLIT_SECRETS_FILES=str(secrets_file),
    )
    proc, url, log = start_streamlit(workdir, env, port)
    try:
        yield {"url": url, "registry": registry, "provider": provider, "log": workdir}
    finally:
        stop_streamlit(proc, log)
        provider.stop()


def sign_in(page: Page, url: str, user: str) -> None:
    page.goto(url)
    expect(page.get_by_role("button", name="Sign in")).to_be_visible(timeout=30_000)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible(timeout=30_000)
    page.get_by_label("User name").fill(user)
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_text(f"Signed in as {USERS[user]['email']}")).to_be_visible(timeout=30_000)


def test_sign_in_through_st_login_shows_that_persons_documents(
    browser: Browser, oidc_server: dict
) -> None:
    page = browser.new_context().new_page()
    page.set_viewport_size({"width": 1300, "height": 900})
    page.goto(oidc_server["url"] + "/registry")
    expect(page.get_by_role("button", name="Sign in")).to_be_visible(timeout=30_000)
    assert "salaries.md" not in page.inner_text("body")
    expect(page.get_by_role("link", name="Registry")).to_have_count(0)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "oidc-01-sign-in-page.png"))

    sign_in(page, oidc_server["url"], "hana")
    assert oidc_server["provider"].token_requests == 1
    expect(page.get_by_text("hr: reader")).to_be_visible()
    page.get_by_role("link", name="Registry").click()
    expect(page.get_by_role("combobox", name="Document")).to_have_value(
        re.compile("salaries.md"), timeout=30_000
    )
    assert "design.md" not in page.inner_text("body")
    page.screenshot(path=str(ARTIFACTS / "oidc-02-signed-in-registry.png"), full_page=True)
    assert any(
        (e["who"], e["action"], e.get("detail")) == ("hana@example.com", "sign-in", "oidc")
        for e in read_audit_log(oidc_server["registry"])
    )

    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("button", name="Sign in")).to_be_visible(timeout=30_000)

    sign_in(page, oidc_server["url"], "erin")  # another person, same browser
    page.get_by_role("link", name="Registry").click()
    expect(page.get_by_role("combobox", name="Document")).to_have_value(
        re.compile("design.md"), timeout=30_000
    )
    assert "salaries.md" not in page.inner_text("body")
