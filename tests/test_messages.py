"""The message catalogue: every key in every language (also as the app runs it, AppTest),
the person's language chosen on Settings, and answer notes in the answer's language."""

from __future__ import annotations

import re

from conftest import texts

from treerag_core.answer.offline.extractive import extractive_answer
from treerag_core.navigate.history import _answer_opening
from treerag_core.text.messages import CATALOGUE, EN, language_of, message

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def test_every_key_is_in_every_language_with_the_same_placeholders() -> None:
    for language, catalogue in CATALOGUE.items():
        assert set(catalogue) == set(EN), language
        for key, text in catalogue.items():
            assert text.strip(), (language, key)
            assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(EN[key])), key


def test_language_tags_and_fallback() -> None:
    assert language_of("de-AT") == "de" and language_of("de_DE") == "de"
    assert language_of("ja-JP") == "en" and language_of(None) == "en"
    assert message("upload.failed", "de", name="a.pdf", reason="kaputt").startswith("a.pdf: fehl")


def test_the_note_follows_the_answer_language() -> None:
    german = [{"text": "Jeder Mitarbeiter hat 30 Urlaubstage im Jahr.", "label": "Urlaub"}]
    answer, _ = extractive_answer("Wie viele Urlaubstage?", german, language="de")
    assert answer.endswith(message("note.offline", "de"))
    answer, _ = extractive_answer("Wie viele Urlaubstage?", german, language="en")
    assert answer.endswith(message("note.offline", "en"))
    nothing, _ = extractive_answer("Wer ist der Präsident?", german, language="de")
    assert nothing.startswith(message("note.no_match", "de"))
    # quoted as an earlier turn, a note is left out whatever its language
    opening = _answer_opening("30 Tage. [S1]\n\n" + message("note.offline", "de"))
    assert opening == "30 Tage. [S1]"


def test_the_app_in_every_language(make_app) -> None:
    """Each language chosen on Settings draws the home page and the chat in its words, with
    no key missing (a missing key would raise KeyError in the run)."""
    for language in CATALOGUE:
        at = make_app("pages/settings.py")
        at.selectbox(key="settings_language").set_value(language).run()
        assert not at.exception, language
        at.switch_page("pages/home.py").run()
        assert not at.exception, language
        assert at.title[0].value == message("home.title", language)
        assert message("home.sample", language) in [b.label for b in at.button]
        at.switch_page("pages/chat.py").run()
        assert not at.exception and message("chat.no_documents", language) in texts(at)


def _shown(at) -> set[str]:  # noqa: ANN001
    """Every text and every widget label the page drew."""
    shown = set(texts(at).splitlines()) | {e.value for e in at.title}
    for kind in ("button", "expander", "selectbox", "multiselect", "text_input", "slider"):
        shown |= {str(e.label) for e in getattr(at, kind)}
    return {s.strip() for s in shown if s and s.strip()}


def _english_leftovers(shown: set[str], prefixes: tuple[str, ...]) -> set[str]:
    """The English wordings of the pages' keys (those German words differently) on show."""
    german = CATALOGUE["de"]
    english = {EN[key] for key in EN if key.startswith(prefixes) and EN[key] != german[key]}
    return shown & english


def test_registry_and_tree_in_german(make_app, sample_doc) -> None:  # noqa: ANN001
    """With German chosen, the Registry (table headers, actions, card) and the tree browser
    (controls, structure note, section panel) draw German words and no English ones."""
    from ui import state

    at = make_app("pages/settings.py")
    at.selectbox(key="settings_language").set_value("de").run()
    at.switch_page("pages/registry.py").run()
    assert not at.exception
    shown = _shown(at)
    assert at.title[0].value == "Register"
    assert {"In der Baumansicht öffnen", "Im Chat öffnen", "Löschen…"} <= shown
    assert message("reg.card", "de") in shown and "Weitere Spalten" in shown
    config = at.dataframe[0].proto.columns  # the headers as the browser shows them
    assert "Sammlung" in config and "Indexiert am" in config
    assert not _english_leftovers(shown, ("reg.",))

    at.session_state[state.TREE_SELECTED] = next(iter(sample_doc["flat_nodes"]))
    at.switch_page("pages/tree.py").run()
    assert not at.exception
    shown = _shown(at)
    assert at.title[0].value == "Baumansicht"
    assert {"Gezeigte Tiefe", "Zu diesem Abschnitt fragen"} <= shown
    assert message("tree.search", "de") in shown
    assert any(text.startswith("Struktur aus") for text in shown)
    assert not _english_leftovers(shown, ("tree.", "panel."))


def test_settings_upload_and_evaluate_in_german(make_app, sample_doc) -> None:  # noqa: ANN001
    """The other pages a person meets run in German too, no English wording of their keys."""
    at = make_app("pages/settings.py")
    at.selectbox(key="settings_language").set_value("de").run()
    assert not _english_leftovers(_shown(at), ("set.",))
    for page, title, prefixes in (
        ("pages/upload.py", "upload.title", ("upload.",)),
        ("pages/evaluate.py", "ev.title", ("ev.",)),
    ):
        at.switch_page(page).run()
        assert not at.exception, page
        assert at.title[0].value == message(title, "de")
        assert not _english_leftovers(_shown(at), prefixes), page


def test_sources_in_german_for_an_admin(make_app, app_registry, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    """An admin (proxy sign-in) with German chosen sees the Sources page (a synced source's
    card with its counts and failed file, the actions, the add form) and the sidebar's
    signed-in line in German words, and none of their English wordings."""
    from treerag_core.sync.run import sync_source
    from treerag_core.sync.sources import add_source

    share = tmp_path / "share"
    share.mkdir()
    (share / "office.md").write_text("# Office\n\n## Wifi\nThe wifi password is plum-7.\n")
    (share / "broken.pdf").write_bytes(b"not a pdf")
    sid = add_source("folder", str(share), "team", registry_path=str(app_registry))["source_id"]
    sync_source(sid, str(app_registry))
    monkeypatch.setenv("TREERAG_AUTH", "proxy")
    monkeypatch.setenv("TREERAG_ADMINS", "admins")
    boss = {"X-Forwarded-User": "boss@example.com", "X-Forwarded-Groups": "admins"}
    monkeypatch.setattr("ui.identity.request_headers", lambda: boss)
    at = make_app("pages/settings.py")
    at.selectbox(key="settings_language").set_value("de").run()
    at.switch_page("pages/sources.py").run()
    assert not at.exception
    shown = _shown(at) | {str(r.label) for r in at.radio} | {s.value for s in at.subheader}
    assert at.title[0].value == "Quellen"
    assert {"Jetzt synchronisieren", "Bearbeiten", "Entfernen…", "Ordnerpfad"} <= shown
    assert "Eine Quelle hinzufügen" in shown
    assert any(e.startswith("Fehlgeschlagene Dateien (1)") for e in shown)
    assert any("1 hinzugefügt" in e and "1 fehlgeschlagen" in e for e in shown)
    assert any(e.startswith("Angemeldet als **boss@example") for e in shown)
    assert not _english_pieces(shown, ("src.", "who."))
    at.button(key=f"src_remove_{sid}").click().run()
    shown = _shown(at) | {str(r.label) for r in at.radio}
    assert "Seine Dokumente" in shown and "Die Quelle entfernen" in shown
    assert not _english_pieces(shown, ("src.", "who."))


def _english_pieces(shown: set[str], prefixes: tuple[str, ...]) -> set[str]:
    """The fixed words of the keys' English wordings (between their placeholders) that German
    words differently, found anywhere in what is shown: filled-in messages count too."""
    german = CATALOGUE["de"]
    pieces = {
        piece.strip()
        for key in EN
        if key.startswith(prefixes) and EN[key] != german[key]
        for piece in PLACEHOLDER.split(EN[key])[::2]
        if len(piece.strip(" ·:()*`.;—→")) > 3 and piece.strip() not in german[key]
    }
    return {piece for piece in pieces for text in shown if piece in text}
