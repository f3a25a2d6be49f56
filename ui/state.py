"""Session-state keys and the few helpers that move a person between pages.

All UI state lives in ``st.session_state`` under the names below, so pages can hand each
other a document / node / question without globals, and each browser session is separate.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import streamlit as st

from treerag_core.access import Principal
from treerag_core.settings import load
from treerag_core.store import DocumentStore, RegistryLike, is_database_url, open_store

from .i18n import t

REGISTRY_PATH = "registry_path"
PROVIDER = "provider_settings"  # dict for treerag_core.make_llms (key included)
TREE_DOC = "tree_doc_id"
TREE_FOCUS = "tree_focus"  # node id whose subtree is drawn; None = whole document
TREE_SELECTED = "tree_selected"  # node id shown in the panel
TREE_DEPTH = "tree_depth"
TREE_PAGE = "tree_page"  # which group of the first level below the focus is drawn
TREE_LAST_CLICK = "tree_last_click"  # last value agraph returned (it repeats across reruns)
TREE_EVIDENCE = "tree_evidence"  # the reference a node was opened from: its passage is marked
CHAT_DOCS = "chat_doc_ids"  # none chosen: every document the person may read
CHAT_COLLECTION = "chat_collection"  # with no document chosen: only this collection
CHAT_THREAD = "chat_thread"  # the open conversation (a thread dict as stored), or None
CHAT_CONTEXT = "chat_context"  # {"doc_id", "node_id", "path"} from "Ask about this section"
CHAT_ASK = "chat_ask"  # a question asked elsewhere (the home page), answered on arrival
CHAT_SUGGESTED = "chat_suggested"  # a question offered to ask (the sample's)
UPLOAD_RESULTS = "upload_results"
EVAL_RESULT = "eval_result"  # the last evaluation (plain JSON) the Evaluate page shows
PRINCIPAL = "principal"  # who is signed in (team modes); None: the single local user
PAGE_NOW = "page_now"  # the page this run shows, and the one the run before showed
PAGE_BEFORE = "page_before"
# What belongs to one person in one registry: cleared whenever the signed-in person or the
# registry changes in a session.
PERSONAL = (CHAT_DOCS, CHAT_COLLECTION, CHAT_THREAD, CHAT_CONTEXT, CHAT_ASK, CHAT_SUGGESTED,
            UPLOAD_RESULTS, EVAL_RESULT, TREE_DOC, TREE_SELECTED, TREE_FOCUS)  # fmt: skip

PAGE_HOME = "pages/home.py"
PAGE_UPLOAD = "pages/upload.py"
PAGE_TREE = "pages/tree.py"
PAGE_CHAT = "pages/chat.py"
PAGE_REGISTRY = "pages/registry.py"
PAGE_SETTINGS = "pages/settings.py"
PAGE_EVALUATE = "pages/evaluate.py"
PAGE_ACCESS = "pages/access.py"
PAGE_SOURCES = "pages/sources.py"


def init_state() -> None:
    """Defaults for a new session; the registry is the configured one (TREERAG_REGISTRY in
    the environment or ``.env``, else indexed_docs.json)."""
    ss = st.session_state
    if REGISTRY_PATH not in ss:
        ss[REGISTRY_PATH] = load().registry
    ss.setdefault(PROVIDER, {})
    ss.setdefault(TREE_DOC, None)
    ss.setdefault(TREE_FOCUS, None)
    ss.setdefault(TREE_SELECTED, None)
    ss.setdefault(TREE_DEPTH, 3)
    ss.setdefault(TREE_PAGE, 0)
    ss.setdefault(TREE_LAST_CLICK, None)
    ss.setdefault(TREE_EVIDENCE, None)
    ss.setdefault(CHAT_DOCS, [])
    ss.setdefault(CHAT_THREAD, None)
    ss.setdefault(CHAT_CONTEXT, None)
    ss.setdefault(UPLOAD_RESULTS, [])


def require_app() -> None:
    """Make every URL show the app's own navigation, registry and sign-in gate.

    While Streamlit has not yet seen ``st.navigation`` (a server's first request, and every
    AppTest run), it serves a ``pages/`` folder by itself: a page file runs without
    ``app.py``, so the sidebar lists raw file names, the registry setting is never read and
    the sign-in gate is skipped. The page then runs the whole app instead, whose
    ``st.navigation`` ends that mode and opens this same page (pages are keyed by their URL
    path) in the same script run, so no widget event is lost.
    """
    if not _legacy_pages_mode():
        return
    from .shell import run_app

    page_config()  # before any navigation: the favicon is ours, never a fetched icon
    st.navigation(app_pages(), position="hidden")  # ends the legacy mode, hides its menu
    run_app()  # ...and runs this page inside the app, behind its sign-in gate
    st.stop()  # ...so the rest of this outer run of the page file has nothing left to do


def _legacy_pages_mode() -> bool:
    try:
        from streamlit.runtime.pages_manager import PagesManager

        return PagesManager.uses_pages_directory is True
    except (ImportError, AttributeError):  # another Streamlit: fall back on our own mark
        return REGISTRY_PATH not in st.session_state


# A local icon: without one the browser tab shows the page's material icon, which is
# fetched from Google's font host, and a desktop tool makes no request but to its server.
ICON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "icon.png")


# Documents' text in right-to-left scripts (Arabic, Hebrew): each paragraph, list item,
# heading and table cell takes its direction from its own first letter, as dir="auto" would,
# and starts on that side; left-to-right text is unchanged. Our CSS, never a document's.
TEXT_DIRECTION_CSS = (
    "<style>[data-testid='stMarkdownContainer'] :is(p, li, h1, h2, h3, h4, h5, h6, td, th),"
    " [data-testid='stCaptionContainer'], [data-testid='stExpander'] summary, textarea,"
    " [data-testid='stText'], [data-testid='stText'] *"
    " {unicode-bidi: plaintext; text-align: start;}</style>"
)


def page_config() -> None:
    st.set_page_config(page_title="treerag", page_icon=ICON, layout="wide")
    st.html(TEXT_DIRECTION_CSS)


def app_pages(settings: bool = True, access: bool = True) -> list[Any]:
    """The app's pages, for ``st.navigation``; the first is served at ``/``. In a team
    deployment only admins see Settings (the engine, the registry file), Sources (the
    folders and buckets the library follows) and Access."""
    pages = [
        st.Page(PAGE_HOME, title=t("nav.library"), icon=":material/library_books:", default=True),
        st.Page(
            PAGE_UPLOAD, title=t("nav.upload"), icon=":material/upload_file:", url_path="upload"
        ),
        st.Page(PAGE_TREE, title=t("nav.tree"), icon=":material/account_tree:", url_path="tree"),
        st.Page(PAGE_CHAT, title=t("nav.chat"), icon=":material/chat:", url_path="chat"),
        st.Page(
            PAGE_REGISTRY,
            title=t("nav.registry"),
            icon=":material/inventory_2:",
            url_path="registry",
        ),  # fmt: skip
        st.Page(
            PAGE_EVALUATE,
            title=t("nav.evaluate"),
            icon=":material/fact_check:",
            url_path="evaluate",
        ),  # fmt: skip
    ]
    if settings:
        pages.append(
            st.Page(
                PAGE_SOURCES, title=t("nav.sources"), icon=":material/sync:", url_path="sources"
            )
        )
        pages.append(
            st.Page(
                PAGE_SETTINGS,
                title=t("nav.settings"),
                icon=":material/settings:",
                url_path="settings",
            )
        )
    if access:
        pages.append(
            st.Page(
                PAGE_ACCESS,
                title=t("nav.access"),
                icon=":material/shield_person:",
                url_path="access",
            )
        )
    return pages


def registry_setting() -> str:
    """The registry as configured: a file path or a ``postgresql://`` URL."""
    return str(st.session_state.get(REGISTRY_PATH) or load().registry)


def registry_path() -> RegistryLike:
    """What the pages pass to the core as ``registry_path``: the file path as is, or for a
    database the one store (and connection pool) this server shares across sessions."""
    setting = registry_setting()
    return shared_store(setting) if is_database_url(setting) else setting


def registry_label() -> str:
    """The registry as shown to admins: a file's absolute path, a URL without its password."""
    setting = registry_setting()
    return shared_store(setting).location if is_database_url(setting) else os.path.abspath(setting)


@st.cache_resource(show_spinner=False)
def shared_store(url: str) -> DocumentStore:
    """One store per database URL for the whole server: every session and rerun shares its
    connection pool instead of connecting again."""
    return open_store(url)


def note_page(url_path: str) -> None:
    """Remember which page this run shows (``run_app`` calls it), so a page can tell a
    visit from a rerun of itself."""
    ss = st.session_state
    ss[PAGE_BEFORE] = ss.get(PAGE_NOW)
    ss[PAGE_NOW] = url_path


def arrived() -> bool:
    """Whether this run is a visit to the page (from another page, or the session's first),
    not a rerun of the page the person is on."""
    ss = st.session_state
    return ss.get(PAGE_BEFORE) != ss.get(PAGE_NOW)


def is_admin() -> bool:
    """Whether the session may use the admins' pages (everyone, when nobody signs in)."""
    person = principal()
    return person is None or person.admin


def principal() -> Principal | None:
    """The signed-in person to pass to the core as ``principal=`` (None: no sign-in)."""
    return st.session_state.get(PRINCIPAL)


def start_person(person: Principal) -> None:
    """A new person in this session: nothing of the previous one's stays visible."""
    ss = st.session_state
    previous = ss.get(PRINCIPAL)
    if previous is not None and previous.user != person.user:
        forget_person()
    ss[PRINCIPAL] = person


def forget_person() -> None:
    """Drop the signed-in person and their chat, uploads and selections."""
    st.session_state[PRINCIPAL] = None
    _forget_personal()


def switch_registry(setting: str) -> None:
    """Use another registry (a file path or a database URL). The documents, the open
    conversation and the results the session holds are the old registry's, so they go,
    as when the signed-in person changes: no page shows a thread of the other registry."""
    st.session_state[REGISTRY_PATH] = setting
    _forget_personal()


def _forget_personal() -> None:
    ss = st.session_state
    for key in PERSONAL:
        ss.pop(key, None)
    init_state()


def bind(state_key: str, widget_key: str) -> Callable[[], None]:
    """Seed a widget from canonical state; return the on_change that copies it back.

    Widget keys are dropped when their page is not shown, so the canonical value lives
    under a non-widget key and survives page switches.
    """
    if state_key in st.session_state:
        st.session_state[widget_key] = st.session_state[state_key]

    def copy_back() -> None:
        st.session_state[state_key] = st.session_state[widget_key]

    return copy_back


def open_in_tree(
    doc_id: str, node_id: str | None = None, evidence: dict[str, Any] | None = None
) -> None:
    """Show ``node_id`` of ``doc_id`` in the tree browser, focused on its parent's subtree;
    ``evidence`` (a reference) marks the passage an answer quoted from it."""
    ss = st.session_state
    ss[TREE_DOC] = doc_id
    ss[TREE_SELECTED] = node_id
    ss[TREE_EVIDENCE] = evidence
    ss[TREE_FOCUS] = None
    ss[TREE_PAGE] = 0
    ss[TREE_LAST_CLICK] = None
    # The address names the section (a link to share or reload; back returns here).
    st.switch_page(
        PAGE_TREE, query_params={"doc": doc_id, **({"node": node_id} if node_id else {})}
    )


def open_in_chat(doc_ids: list[str], context: dict[str, Any] | None = None) -> None:
    """Go to chat with these documents selected (and optionally one section as context)."""
    st.session_state[CHAT_DOCS] = list(doc_ids)
    st.session_state[CHAT_CONTEXT] = context
    st.switch_page(PAGE_CHAT)
