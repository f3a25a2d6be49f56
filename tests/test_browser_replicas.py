"""Two app replicas (two `streamlit run app.py` servers) on one PostgreSQL database, in
Debian Chromium: a document indexed on one appears on the other, and a job queued on one
replica and run by a worker process shows as done on the other."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from browser_helpers import shot, wait_idle
from conftest import PROVIDER_ENV, server_env, start_streamlit, stop_streamlit
from playwright.sync_api import Page, expect
from test_browser_app import make_pdf, upload_and_index

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.browser


@pytest.mark.timeout(240)
def test_two_replicas_on_one_database(page: Page, pg_url: str, tmp_path: Path) -> None:
    servers = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        servers.append(start_streamlit(tmp_path / name, server_env(pg_url)))
    (_, url_a, _), (_, url_b, _) = servers
    try:
        page.set_viewport_size({"width": 1400, "height": 1000})
        page.goto(url_a + "/upload")
        expect(page.get_by_role("heading", name="Upload & index")).to_be_visible(timeout=30_000)
        upload_and_index(page, make_pdf(tmp_path / "replica.pdf", 4))

        page.goto(url_b + "/registry")  # the other replica, a new session
        expect(page.get_by_role("heading", name="Registry")).to_be_visible(timeout=30_000)
        expect(page.get_by_role("combobox", name="Document")).to_have_value(
            re.compile("replica.pdf"), timeout=30_000
        )
        shot(page, "11-replica-b-registry.png")
        page.goto(url_b + "/settings")  # the registry's location is on Settings
        expect(page.get_by_text("Registry: postgresql://treerag@127.0.0.1").first).to_be_visible()

        page.goto(url_b + "/upload")  # queue a file on replica b for the workers
        expect(page.get_by_role("heading", name="Upload & index")).to_be_visible(timeout=30_000)
        page.get_by_text("Queue for the indexing workers").click()
        notes = tmp_path / "queued-notes.md"
        notes.write_text("# Notes\nQueued on replica b.\n## More\nRun by a worker.\n")
        page.locator('input[type="file"]').first.set_input_files(str(notes))
        expect(page.get_by_text(notes.name).first).to_be_visible(timeout=20_000)
        page.get_by_role("button", name="Index", exact=True).click()
        expect(page.get_by_text("Queued queued-notes.md")).to_be_visible(timeout=30_000)
        expect(page.get_by_text(re.compile(r"queued-notes\.md · queued"))).to_be_visible()

        env = {k: v for k, v in os.environ.items() if k not in PROVIDER_ENV}
        worker = subprocess.run(
            [sys.executable, "-m", "treerag_core", "--registry", pg_url, "worker", "--drain"],
            cwd=tmp_path, env={**env, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
            timeout=120,
        )  # fmt: skip
        assert worker.returncode == 0 and "1 job(s) run" in worker.stderr, worker.stderr

        page.goto(url_a + "/upload")  # replica a shows the job replica b queued, done
        expect(page.get_by_text(re.compile(r"queued-notes\.md · done"))).to_be_visible(
            timeout=30_000
        )
        expect(page.get_by_text("Indexed: 2 sections")).to_be_visible()
        wait_idle(page)
        shot(page, "12-replica-a-job-done.png")
        page.get_by_role("button", name="Open in tree").last.click()
        expect(page.get_by_role("heading", name="Tree browser")).to_be_visible(timeout=30_000)
        expect(page.get_by_text("queued-notes.md").first).to_be_visible(timeout=30_000)
    finally:
        for proc, _url, log in servers:
            stop_streamlit(proc, log)
