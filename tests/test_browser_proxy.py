"""Team hosting behind a sign-in proxy, in Chromium (TREERAG_AUTH=proxy).

Deployed as SECURITY.md says: Streamlit on loopback behind a real nginx running the
repository's ``deploy/nginx/treerag-location.conf``. Each person has a proxy port of their
own that sets their identity (in a deployment the sign-in step sets it), and their browser
talks only to that port. HR's collection is read by the group ``hr`` and edited by
``hr-editors``; engineering's is read by ``eng`` and edited by erin. Screenshots go to
test-artifacts/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from browser_helpers import shot, wait_idle
from conftest import server_env, start_streamlit, stop_streamlit
from playwright.sync_api import Browser, Page, expect
from reverse_proxy import running_proxy

from treerag_core import list_documents
from treerag_core.access.audit import read_audit_log
from treerag_core.access.collections import set_collection_access
from treerag_core.access.principal import Principal
from treerag_core.library.indexing import index_upload

# The identity the proxy sets for each person (their proxy port's server block).
PEOPLE = {
    "hana": {"X-Forwarded-User": "hana@example.com", "X-Forwarded-Groups": "hr"},
    "hugo": {"X-Forwarded-User": "hugo@example.com", "X-Forwarded-Groups": "hr,hr-editors"},
    "erin": {"X-Forwarded-Email": "erin@example.com", "X-Forwarded-Groups": "eng"},
    "admin": {"X-Forwarded-User": "root@example.com", "X-Forwarded-Groups": "ops admins"},
}
# What a browser may send by itself; the proxy replaces it, so it must change nothing.
FORGED = {"X-Forwarded-User": "root@example.com", "X-Forwarded-Groups": "admins"}

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def proxy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    workdir = tmp_path_factory.mktemp("proxy")
    registry = str(workdir / "indexed_docs.json")
    set_collection_access("hr", readers=["hr"], editors=["hr-editors"], registry_path=registry)
    set_collection_access("eng", readers=["eng"], editors=["erin@example.com"],
                          registry_path=registry)  # fmt: skip
    hr = index_upload("salaries.md", b"# Salaries\nLevel 3 earns 90,000 euros.\n",
                      registry_path=registry, collection="hr")  # fmt: skip
    index_upload("design.md", b"# Design\nThe gateway uses a token bucket.\n",
                 registry_path=registry, collection="eng")  # fmt: skip
    env = server_env(workdir / "indexed_docs.json", TREERAG_AUTH="proxy", TREERAG_ADMINS="admins")
    proc, url, log = start_streamlit(workdir, env)
    try:
        port = int(url.rsplit(":", 1)[1])
        with running_proxy(workdir / "nginx", port, PEOPLE) as proxied:
            yield {"direct": url, **proxied, "registry": registry, "hr_doc": hr["doc_id"]}
    finally:
        stop_streamlit(proc, log)


def person(browser: Browser, headers: dict[str, str] | None = None) -> Page:
    """A browser of its own; ``headers`` are what it sends by itself, never an identity
    the app should believe."""
    context = browser.new_context(extra_http_headers=headers or {})
    page = context.new_page()
    page.set_viewport_size({"width": 1300, "height": 900})
    return page


def open_registry(page: Page, url: str) -> None:
    page.goto(url + "/registry")
    expect(page.get_by_role("heading", name="Registry")).to_be_visible(timeout=30_000)
    wait_idle(page)


def test_two_people_see_their_own_documents(browser: Browser, proxy_server: dict) -> None:
    # Hana's browser also claims to be an admin by itself: the proxy replaces that.
    hana, erin = person(browser, FORGED), person(browser)
    open_registry(hana, proxy_server["hana"])
    open_registry(erin, proxy_server["erin"])
    expect(hana.get_by_text("Signed in as hana@example.com")).to_be_visible()
    expect(hana.get_by_text("hr: reader")).to_be_visible()
    expect(erin.get_by_text("eng: editor")).to_be_visible()
    picker = hana.get_by_role("combobox", name="Document")
    expect(picker).to_have_value(re.compile("salaries.md"))
    expect(erin.get_by_role("combobox", name="Document")).to_have_value(re.compile("design.md"))
    assert "design.md" not in hana.inner_text("body")
    assert "salaries.md" not in erin.inner_text("body")
    # A reader may open and export, but gets no re-index, delete, move or import.
    expect(hana.get_by_role("button", name="Export JSON")).to_be_visible()
    for hidden in ("Delete…", "Re-index", "Move"):
        expect(hana.get_by_role("button", name=hidden)).to_have_count(0)
    expect(hana.get_by_text("Import documents from an export file")).to_have_count(0)
    expect(hana.get_by_role("link", name="Access")).to_have_count(0)
    expect(hana.get_by_role("link", name="Settings")).to_have_count(0)
    shot(hana, "proxy-01-reader-registry.png")
    shot(erin, "proxy-02-other-team-registry.png")
    hana.goto(proxy_server["hana"] + "/chat")
    expect(hana.get_by_role("heading", name="Chat")).to_be_visible(timeout=30_000)
    box = hana.get_by_test_id("stChatInputTextArea")
    box.fill("What does level 3 earn?")
    box.press("Enter")
    expect(hana.get_by_text("90,000").first).to_be_visible(timeout=60_000)
    shot(hana, "proxy-03-reader-chat.png")


def test_a_delete_the_page_still_offers_is_refused_by_the_core(
    browser: Browser, proxy_server: dict
) -> None:
    """Hugo edits HR's collection when his page draws the delete; an admin then takes his
    editing away; his click is a forged request now, and the core refuses it."""
    hugo = person(browser)
    open_registry(hugo, proxy_server["hugo"])
    expect(hugo.get_by_text("hr: editor")).to_be_visible()
    hugo.get_by_role("button", name="Delete…").click()
    expect(hugo.get_by_role("button", name="Yes, delete")).to_be_visible(timeout=30_000)
    set_collection_access("hr", readers=["hr"], editors=[], registry_path=proxy_server["registry"],
                          principal=Principal("root@example.com", admin=True))  # fmt: skip
    hugo.get_by_role("button", name="Yes, delete").click()
    expect(hugo.get_by_text(re.compile("Not deleted: .*only editors"))).to_be_visible(
        timeout=30_000
    )
    shot(hugo, "proxy-04-forged-delete-refused.png")
    assert [r["doc_id"] for r in list_documents(proxy_server["registry"])].count(
        proxy_server["hr_doc"]
    ) == 1
    entries = read_audit_log(proxy_server["registry"])
    assert any(
        (e["who"], e["action"], e["outcome"]) == ("hugo@example.com", "delete", "denied")
        for e in entries
    )
    assert any(e["who"] == "hugo@example.com" and e["action"] == "sign-in" for e in entries)
    set_collection_access("hr", readers=["hr"], editors=["hr-editors"],
                          registry_path=proxy_server["registry"])  # fmt: skip


def test_a_request_past_the_proxy_is_refused(browser: Browser, proxy_server: dict) -> None:
    """Straight to Streamlit, not through the proxy: no identity, so nothing is shown."""
    nobody = person(browser)
    for path in ("/", "/registry", "/access"):
        nobody.goto(proxy_server["direct"] + path)
        expect(nobody.get_by_role("heading", name="Access refused")).to_be_visible(timeout=30_000)
        wait_idle(nobody)
        body = nobody.inner_text("body")
        assert "salaries.md" not in body and "design.md" not in body
        expect(nobody.get_by_role("link", name="Registry")).to_have_count(0)
    shot(nobody, "proxy-05-no-header-refused.png")


def test_an_admin_manages_access_and_reads_the_audit_log(
    browser: Browser, proxy_server: dict
) -> None:
    admin = person(browser)
    admin.goto(proxy_server["admin"] + "/access")
    expect(admin.get_by_role("heading", name="Access")).to_be_visible(timeout=30_000)
    expect(admin.get_by_role("heading", name="Audit log")).to_be_visible()
    wait_idle(admin)
    admin.get_by_role("textbox", name="Name").fill("legal")
    admin.get_by_role("textbox", name="Readers").fill("legal, lena@example.com")
    admin.get_by_role("button", name="Save access").click()
    expect(admin.get_by_text("Saved the access of legal")).to_be_visible(timeout=30_000)
    shot(admin, "proxy-06-admin-access-page.png")
    changes = [e for e in read_audit_log(proxy_server["registry"]) if e["action"] == "access"]
    assert changes[0]["who"] == "root@example.com" and changes[0]["collection"] == "legal"
