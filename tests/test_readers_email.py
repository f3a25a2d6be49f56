"""E-mail: messages written in the test with the standard library (attachments: a room list
in .txt, a Word file, a PDF, a zip we do not read), a thread in a mailbox and an Outlook
.msg. The subject is the title, sender/recipients/date head the message's text and sit on
the document, quotes are folded, attachments are read by their own readers, questions are
answered from the right message or attachment, and hostile mail is bounded."""

from __future__ import annotations

import sys
import time
from datetime import timedelta
from email.message import EmailMessage

import pytest

from testkit.mail_builders import START, make_docx_bytes, make_mbox, make_message, make_pdf_bytes
from testkit.msg_builder import make_msg
from treerag_core import (
    DocumentReadError,
    DocumentTooLargeError,
    TreeragError,
    ask,
    index_document,
    list_documents,
    make_retriever,
    make_summarizer,
)
from treerag_core.library.catalog import get_card
from treerag_core.library.indexing import index_upload
from treerag_core.limits import Limits
from treerag_core.read.formats import accepted_extensions, accepted_mime_types
from treerag_core.read.source import read_bytes
from treerag_core.store import open_store
from ui.tree_logic import structure_note

ALICE = "Alice Martin <alice@example.com>"
BOB = "Bob Stone <bob@example.com>"
CARLA = "Carla Diaz <carla@example.com>"
ROOMS = (
    b"Meeting rooms for the offsite\n\nRoom Atlas: 12 seats, projector.\n"
    b"Room Borealis: 6 seats, whiteboard.\nThe wifi password is heron-42-lake.\n"
)
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def _offsite() -> EmailMessage:
    return make_message(
        "Offsite logistics",
        ALICE,
        "Team <team@example.com>",
        "Hi all,\n\nThe offsite is on 14 March in Lyon. The bus leaves at 8:15 from the "
        "main entrance.\n\nAlice",
        cc=CARLA,
        attachments=[
            ("rooms.txt", ROOMS, "text/plain"),
            (
                "budget.docx",
                make_docx_bytes(
                    [("h1", "Travel budget"), ("p", "The travel budget is 12,400 EUR.")]
                ),
                DOCX,
            ),
            (
                "agenda.pdf",
                make_pdf_bytes(["Agenda", "The budget review starts at 09:30 in Room Atlas."]),
                "application/pdf",
            ),
            ("photos.zip", b"PK\x03\x04 not really a zip", "application/zip"),
        ],
    )


def _thread() -> list[EmailMessage]:
    first = _offsite()
    reply = make_message(
        "Re: Offsite logistics",
        BOB,
        ALICE,
        "Thanks Alice. I will bring the projector cable.\n\n"
        f"On Mon, 4 Mar 2024 at 09:00, {ALICE} wrote:\n> Hi all,\n>\n"
        "> The offsite is on 14 March in Lyon. The bus leaves at 8:15 from the main entrance.\n",
        when=START + timedelta(hours=2),
        reply_to=first,
    )
    answer = make_message(
        "RE: Offsite logistics",
        CARLA,
        BOB,
        "Bob, we ordered 7 vegetarian lunches.\n\n-----Original Message-----\nFrom: Bob Stone\n"
        "Sent: Monday, March 4, 2024 11:00\n\nThanks Alice. I will bring the projector cable.\n",
        when=START + timedelta(hours=5),
        reply_to=reply,
    )
    other = make_message(
        "Printer broken",
        "Dan Ng <dan@example.com>",
        "it@example.com",
        "The printer on floor 3 jams on every duplex job.",
        when=START + timedelta(hours=1),
    )
    return [answer, first, other, reply]  # out of order in the file


def _outline(doc) -> list[tuple[int, str, int | None]]:
    return [(n["level"], n["title"], n["page_start"]) for n in doc["flat_nodes"].values()]


def _node(doc, title: str):
    return next(n for n in doc["flat_nodes"].values() if n["title"] == title)


def test_a_message_its_headers_body_and_attachments(tmp_path) -> None:
    registry = str(tmp_path / "reg.json")
    doc = index_upload("offsite.eml", _offsite().as_bytes(), registry_path=registry)
    assert _outline(doc) == [
        (1, "Offsite logistics", None),
        (2, "Attachment: rooms.txt", None),
        (2, "Attachment: budget.docx", None),
        (3, "Travel budget", None),
        (2, "Attachment: agenda.pdf", None),
        (2, "Attachment: photos.zip", None),
    ]
    head = _node(doc, "Offsite logistics")["text"].split("\n")
    assert head[:5] == [
        f"From: {ALICE}",
        "To: Team <team@example.com>",
        f"Cc: {CARLA}",
        "Date: Mon, 04 Mar 2024 09:00:00 +0100",
        "Attachments: rooms.txt, budget.docx, agenda.pdf, photos.zip",
    ]
    assert "The bus leaves at 8:15" in "\n".join(head)
    assert "heron-42-lake" in _node(doc, "Attachment: rooms.txt")["text"]
    assert "09:30" in _node(doc, "Attachment: agenda.pdf")["text"]
    skipped = _node(doc, "Attachment: photos.zip")["text"]
    assert skipped == "photos.zip was skipped: .zip files are not a type treerag reads."
    assert doc["metadata"] == {
        "title": "Offsite logistics",
        "from": ALICE,
        "to": "Team <team@example.com>",
        "cc": CARLA,
        "date": "2024-03-04T09:00:00+01:00",
        "attachments": 3,
    }
    assert doc["source_type"] == "eml" and doc["structure_source"] == "e-mail message"
    assert get_card(doc["doc_id"], registry)["title"] == "Offsite logistics"
    assert structure_note(doc).startswith(
        f"From {ALICE} · to Team <team@example.com> · cc {CARLA} · sent 2024-03-04T09:00:00+01:00"
    )


@pytest.fixture(scope="module")
def offsite_doc(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mail")
    path = folder / "offsite.eml"
    path.write_bytes(_offsite().as_bytes())
    return index_document(
        str(path), summarizer=make_summarizer(None), registry_path=str(folder / "r.json")
    )


@pytest.mark.parametrize(
    "question, title, value",
    [
        ("What is the wifi password?", "Attachment: rooms.txt", "heron-42-lake"),
        ("What is the travel budget?", "Travel budget", "12,400 EUR"),
        ("When does the budget review start?", "Attachment: agenda.pdf", "09:30"),
        ("When does the bus leave?", "Offsite logistics", "8:15"),
    ],
)
def test_questions_answered_from_the_message_or_its_attachment(
    offsite_doc, question, title, value
) -> None:
    result = ask(question, offsite_doc, make_retriever(None))
    assert value in result.content
    assert next(r for r in result.references if r["cited"])["title"] == title


def test_a_quoted_reply_is_folded_under_its_message() -> None:
    reply = _thread()[3]
    st = read_bytes(reply.as_bytes(), "reply.eml")
    own, quoted = st.text.split("\n## ")
    assert "I will bring the projector cable." in own and "bus leaves" not in own
    assert quoted.startswith(f"Quoted: On Mon, 4 Mar 2024 at 09:00, {ALICE} wrote\n")
    assert "The offsite is on 14 March in Lyon." in quoted and "\n>" not in quoted


def test_outlook_original_message_is_folded() -> None:
    st = read_bytes(_thread()[0].as_bytes(), "answer.eml")
    own, quoted = st.text.split("\n## ")
    assert own.rstrip().endswith("Bob, we ordered 7 vegetarian lunches.")
    assert quoted.startswith(
        "Quoted: original message from Bob Stone, Monday, March 4, 2024 11:00\n"
    )


def test_an_html_body_goes_through_the_html_reader_with_its_quote_apart() -> None:
    html = (
        "<html><head><style>p{color:red}</style></head><body><h2>Status</h2>"
        "<p>The migration finished at <b>02:10</b>.</p><table><tr><th>Host</th><th>State</th>"
        "</tr><tr><td>db-1</td><td>green</td></tr></table>"
        '<div class="gmail_quote"><div class="gmail_attr">On Sun, Bob wrote:</div>'
        "<blockquote>Is the migration done?</blockquote></div></body></html>"
    )
    message = EmailMessage()
    message["Subject"], message["From"], message["To"] = "Migration", ALICE, BOB
    message.set_content(html, subtype="html")
    st = read_bytes(message.as_bytes(), "html.eml")
    sections = st.text.split("\n## ")
    assert sections[1].startswith("Status\nThe migration finished at 02:10 .")
    assert "Columns: Host | State\n\nHost db-1: State green." in sections[1]  # as Word's
    assert "color" not in st.text
    assert sections[2] == "Quoted: On Sun, Bob wrote\nIs the migration done?"


def test_a_mailbox_is_read_as_threads_a_page_per_message(tmp_path) -> None:
    registry = str(tmp_path / "reg.json")
    doc = index_upload("team.mbox", make_mbox(_thread()), registry_path=registry)
    messages = [(level, title, page) for level, title, page in _outline(doc) if "—" in title]
    assert messages == [
        (1, "Offsite logistics — Alice Martin — 2024-03-04", 1),
        (2, "Re: Offsite logistics — Bob Stone — 2024-03-04", 2),
        (3, "RE: Offsite logistics — Carla Diaz — 2024-03-04", 3),
        (1, "Printer broken — Dan Ng — 2024-03-04", 4),
    ]
    bob = _node(doc, "Re: Offsite logistics — Bob Stone — 2024-03-04")["text"]
    assert "bus leaves" not in bob  # Bob's copy of Alice's message is folded into a line
    assert bob.endswith("wrote, the message above in this thread]")
    carla = _node(doc, "RE: Offsite logistics — Carla Diaz — 2024-03-04")["text"]
    assert "projector cable" not in carla
    assert doc["total_pages"] == 4 and doc["metadata"] == {
        "title": "Offsite logistics",
        "messages": 4,
    }
    result = ask("How many vegetarian lunches were ordered?", doc, make_retriever(None))
    cited = next(r for r in result.references if r["cited"])
    assert "7 vegetarian lunches" in result.content and cited["page_start"] == 3
    result = ask("What is the wifi password?", doc, make_retriever(None))
    assert "heron-42-lake" in result.content
    assert next(r for r in result.references if r["cited"])["title"] == "Attachment: rooms.txt"


def test_an_outlook_msg_file_reads_like_its_eml(tmp_path) -> None:
    headers = (
        f"From: {ALICE}\r\nTo: Team <team@example.com>\r\nSubject: Offsite rooms\r\n"
        "Date: Mon, 04 Mar 2024 09:00:00 +0100\r\nMessage-ID: <msg1@example.com>\r\n\r\n"
    )
    big = b"Line of the floor plan with the stairs and the lifts.\n" * 200  # past the mini stream
    data = make_msg(
        headers,
        "Offsite rooms",
        "Hello team,\r\nthe room list is attached.\r\nAlice",
        [("rooms.txt", ROOMS), ("floorplan.txt", big)],
    )
    path = tmp_path / "rooms.msg"
    path.write_bytes(data)
    doc = index_document(str(path), registry_path=str(tmp_path / "r.json"))
    assert _outline(doc) == [
        (1, "Offsite rooms", None),
        (2, "Attachment: rooms.txt", None),
        (2, "Attachment: floorplan.txt", None),
    ]
    assert _node(doc, "Offsite rooms")["text"].startswith(f"From: {ALICE}\nTo: Team")
    assert "the room list is attached." in _node(doc, "Offsite rooms")["text"]
    assert doc["metadata"]["from"] == ALICE and doc["source_type"] == "msg"
    result = ask("What is the wifi password?", doc, make_retriever(None))
    assert "heron-42-lake" in result.content


def test_msg_without_extract_msg_names_the_package(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "extract_msg", None)
    with pytest.raises(DocumentReadError, match="extract-msg"):
        read_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600, "old.msg")


def test_formats_come_from_the_one_table() -> None:
    assert {"eml", "mbox", "msg"} <= set(accepted_extensions())
    assert {"message/rfc822", "application/mbox"} <= set(accepted_mime_types())


# --- bad input ---------------------------------------------------------------------------


def _nested_multipart(depth: int) -> bytes:
    inner = b"Content-Type: text/plain\r\n\r\nhello\r\n"
    for i in range(depth):
        b = b"b%d" % i
        inner = (b"Content-Type: multipart/mixed; boundary=" + b + b"\r\n\r\n--" + b + b"\r\n"
                 + inner + b"\r\n--" + b + b"--\r\n")  # fmt: skip
    return b"Subject: deep\r\nFrom: x@example.com\r\nMIME-Version: 1.0\r\n" + inner


def _nested_rfc822(depth: int) -> bytes:
    inner = b"Subject: leaf\r\n\r\nThe innermost text.\r\n"
    for i in range(depth):
        inner = b"Subject: level %d\r\nContent-Type: message/rfc822\r\n\r\n" % i + inner
    return inner


def _many_attachments(count: int) -> bytes:
    files = [(f"note{i}.txt", f"Note number {i}.".encode(), "text/plain") for i in range(count)]
    return make_message("Dump", ALICE, BOB, "Many notes.", attachments=files).as_bytes()


def _forwarded(depth: int) -> bytes:
    """A message forwarded as an attachment of a forwarded message, ``depth`` times."""
    message = make_message("Level 0", ALICE, BOB, "The innermost secret is 77.")
    for level in range(1, depth + 1):
        outer = make_message(f"Level {level}", ALICE, BOB, f"Forwarding level {level}.")
        outer.add_attachment(message)
        message = outer
    return message.as_bytes()


def _bomb_attachment() -> bytes:
    import io
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        with zf.open("word/document.xml", "w", force_zip64=True) as member:
            for _ in range(300):
                member.write(b"A" * (1024 * 1024))
    return make_message("Bomb", ALICE, BOB, "See attached.",
                        attachments=[("bomb.docx", out.getvalue(), DOCX)]).as_bytes()  # fmt: skip


BAD_MAIL = {
    "garbage.eml": (lambda: bytes(range(256)) * 40, DocumentReadError),
    "deep_multipart.eml": (lambda: _nested_multipart(3000), DocumentTooLargeError),
    "deep_rfc822.eml": (lambda: _nested_rfc822(200), DocumentTooLargeError),
    "garbage.mbox": (lambda: b"\x00\x01 no From line here" * 100, DocumentReadError),
    "truncated.eml": (lambda: _offsite().as_bytes()[:3000], None),  # None: a bounded read
    "many_attachments.eml": (lambda: _many_attachments(3000), None),
    "forwarded_deep.eml": (lambda: _forwarded(6), None),
    "bomb_attachment.eml": (_bomb_attachment, None),
}


@pytest.mark.timeout(200)
@pytest.mark.parametrize("name", list(BAD_MAIL))
def test_bad_mail_is_refused_or_bounded_and_nothing_stored_changes(tmp_path, name) -> None:
    make, expected = BAD_MAIL[name]
    registry = str(tmp_path / "reg.json")
    suffix = name.rsplit(".", 1)[1]
    good = index_upload(
        f"mail.{suffix}",
        make_mbox([_offsite()]) if suffix == "mbox" else _offsite().as_bytes(),
        registry_path=registry,
    )
    store = open_store(registry)
    before = (store.list(), store.sources.read(good["file_path"]))
    started = time.monotonic()
    try:
        doc = index_upload(f"mail.{suffix}", make(), registry_path=registry, overwrite=True)
    except TreeragError as exc:
        assert expected is not None, f"{name}: {type(exc).__name__}: {exc}"
        assert isinstance(exc, expected), f"{type(exc).__name__}: {exc}"
        assert 10 < len(str(exc)) < 400
        assert (store.list(), store.sources.read(good["file_path"])) == before
    else:
        assert expected is None, f"{name} should have been refused"
        _check_bounded(name, doc)
    assert time.monotonic() - started < 150  # bounded, far below the test's own timeout


def _check_bounded(name: str, doc) -> None:
    text = "\n".join(n["title"] + "\n" + n["text"] for n in doc["flat_nodes"].values())
    limits = Limits()
    if name == "many_attachments.eml":
        read = [n for n in doc["flat_nodes"].values() if n["title"].startswith("Attachment:")]
        assert len(read) == 3000 and doc["metadata"]["attachments"] == limits.max_attachments
        assert "and 2,950 more" in text and "Note number 199." in text
        assert "note200.txt was skipped: the limit of 200 attachments read was reached." in text
    if name == "forwarded_deep.eml":
        assert "Forwarding level 3." in text and "The innermost secret is 77." not in text
        assert "was skipped: it is nested more than 3 files deep." in text
    if name == "bomb_attachment.eml":
        assert "bomb.docx was skipped: it would inflate the attachments past the" in text
    if name == "truncated.eml":
        assert "The bus leaves at 8:15" in text


def test_a_huge_mailbox_is_cut_at_the_page_limit() -> None:
    messages = [
        make_message(f"Note {i}", ALICE, BOB, f"Body {i}.", when=START + timedelta(minutes=i))
        for i in range(60)
    ]
    st = read_bytes(make_mbox(messages), "big.mbox", Limits(max_pages=25))
    assert st.page_count == 25 and "Only the first 25 of 60 messages" in st.warnings[0]


def test_a_mailbox_past_the_section_limit_stops_at_a_whole_message() -> None:
    messages = [
        make_message(f"Note {i}", ALICE, BOB, f"Body {i}.", when=START + timedelta(minutes=i),
                     attachments=[(f"n{i}.txt", b"Attached text.", "text/plain")])
        for i in range(20)
    ]  # fmt: skip
    st = read_bytes(make_mbox(messages), "big.mbox", Limits(max_sections=9))
    assert st.page_count == 4 and "Only 4 of 20 messages were read" in st.warnings[0]


def test_the_upload_page_indexes_mail_and_says_what_is_wrong_with_a_broken_book(
    make_app, app_registry
) -> None:
    at = make_app("pages/upload.py")
    at.file_uploader[0].set_value(
        [
            ("offsite.eml", _offsite().as_bytes(), "message/rfc822"),
            ("broken.epub", b"PK\x03\x04 cut short", "application/epub+zip"),
        ]
    )
    at.run()
    next(b for b in at.button if b.label == "Index").click().run()
    assert not at.exception
    assert [e.value for e in at.error] == [
        "broken.epub is not a valid .epub file (it is not a readable zip archive: it may be "
        "damaged or cut short). Save the e-book as .epub (EPUB 2 or 3) without DRM."
    ]
    listed = list_documents(str(app_registry))
    assert [(d["file_name"], d["source_type"]) for d in listed] == [("offsite.eml", "eml")]
