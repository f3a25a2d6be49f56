"""Settings page (AppTest) and app shell: provider choice, key handling, connection test."""

from __future__ import annotations

import streamlit_agraph
from conftest import ask, texts

from ui import state

SETTINGS = "pages/settings.py"
CHAT = "pages/chat.py"
SECRET = "sk-test-SECRET-1234567890"


def _buttons(at) -> str:  # noqa: ANN001
    return "\n".join(str(b.label) for b in at.button)


def _all_values(at) -> str:  # noqa: ANN001
    values = [texts(at)] + [str(w.value) for w in at.text_input]
    return "\n".join(values)


def test_default_is_offline_and_every_page_renders(make_app, sample_doc, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setattr(streamlit_agraph, "agraph", lambda nodes, edges, config: None)
    at = make_app()
    assert "Offline engine" in texts(at)
    for page in ("pages/tree.py", "pages/chat.py", "pages/registry.py", SETTINGS):
        at.switch_page(page).run()
        assert not at.exception, page
        assert not at.error, page
    assert at.radio[0].value == "offline"


def test_api_key_is_never_shown_back(make_app) -> None:  # noqa: ANN001
    at = make_app(SETTINGS)
    at.radio[0].set_value("openai")
    key_field = next(w for w in at.text_input if w.label == "OpenAI API key")
    key_field.input(SECRET)
    at.button[0].click().run()  # the form's submit button
    assert at.session_state[state.PROVIDER]["openai_api_key"] == SECRET
    assert SECRET not in _all_values(at)
    assert "An API key was entered in this session." in texts(at)
    at.switch_page(SETTINGS).run()
    assert SECRET not in _all_values(at)
    assert next(w for w in at.text_input if w.label == "OpenAI API key").value == ""


def test_connection_error_is_a_message(make_app) -> None:  # noqa: ANN001
    at = make_app(SETTINGS)
    at.radio[0].set_value("openai")
    next(w for w in at.text_input if w.label == "OpenAI API key").input(SECRET)
    next(w for w in at.text_input if w.label.startswith("OpenAI base URL")).input(
        "http://127.0.0.1:9/v1"
    )
    at.button[0].click().run()
    at.button(key="settings_test").click().run()
    assert not at.exception
    [shown] = [e.value for e in at.error]
    assert shown.startswith("Cannot reach the connection test model (gpt-4o): ")
    assert shown.endswith("Check the server address and that it is running.")
    assert SECRET not in shown


def test_missing_key_is_a_config_message(make_app) -> None:  # noqa: ANN001
    at = make_app(SETTINGS)
    at.radio[0].set_value("openai")
    at.button[0].click().run()
    at.button(key="settings_test").click().run()
    assert any("OPENAI_API_KEY" in e.value for e in at.error)


def test_offline_connection_test(make_app) -> None:  # noqa: ANN001
    at = make_app(SETTINGS)
    at.button(key="settings_test").click().run()
    assert any("no connection needed" in s.value for s in at.success)


def test_registry_path_setting(make_app, tmp_path) -> None:  # noqa: ANN001
    at = make_app(SETTINGS)
    other = str(tmp_path / "elsewhere.json")
    next(w for w in at.text_input if w.label == "Registry file or database URL").input(other)
    at.button[0].click().run()
    assert at.session_state[state.REGISTRY_PATH] == other


def test_switching_registry_closes_the_old_registrys_conversation(
    make_app, sample_doc, tmp_path
) -> None:  # noqa: ANN001
    from ui.chat_threads import THREAD_PARAM

    at = ask(make_app(CHAT), "Who wrote it?")
    thread = at.session_state[state.CHAT_THREAD]
    assert thread["title"] == "Who wrote it?" and "Who wrote it?" in _buttons(at)
    at.switch_page(SETTINGS).run()
    other = str(tmp_path / "other" / "registry.json")
    next(w for w in at.text_input if w.label == "Registry file or database URL").input(other)
    at.button[0].click().run()
    assert at.session_state[state.REGISTRY_PATH] == other
    at.switch_page(CHAT).run()
    assert not at.exception and not at.warning
    assert at.session_state[state.CHAT_THREAD] is None
    assert THREAD_PARAM not in at.query_params
    assert "Who wrote it?" not in _buttons(at) + texts(at)  # not in the list, not open
    assert "No documents yet" in texts(at)  # the chat reads the new, empty registry


def test_search_mode_setting_reaches_the_retriever(make_app) -> None:  # noqa: ANN001
    """The page's choice is a setting; the search model made from it carries it and the
    retriever built over that model navigates that way."""
    from treerag_core import make_retriever
    from treerag_core.llm.providers import make_llms

    at = make_app(SETTINGS)
    at.radio[0].set_value("openai")
    next(w for w in at.text_input if w.label.startswith("OpenAI base URL")).input(
        "http://127.0.0.1:9/v1"
    )
    mode = next(r for r in at.radio if r.label.startswith("How the search model"))
    assert mode.value == "checked"
    mode.set_value("offline")
    at.button[0].click().run()
    chosen = at.session_state[state.PROVIDER]
    assert chosen["search_mode"] == "offline"
    search, answer = make_llms(chosen)
    assert make_retriever(answer, search_llm=search).navigation.search_mode == "offline"
