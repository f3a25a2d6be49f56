"""Build real e-books and e-mail for the tests and the benchmark, in memory.

EPUB 2 and 3 files are written as zips directly (container, OPF, NCX or navigation
document, XHTML chapters), the way e-book tools lay them out; e-mail with the standard
library's ``EmailMessage`` (attachments included) and ``mailbox.mbox`` for a mailbox.
"""

from __future__ import annotations

import io
import mailbox
import os
import tempfile
import zipfile
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from html import escape

CONTAINER = """<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>"""


@dataclass
class Chapter:
    """One chapter: its title in the contents, its paragraphs, and sub-chapters that
    start at anchors inside the same file."""

    title: str
    paragraphs: list[str]
    children: list[Chapter] = field(default_factory=list)
    anchor: str = ""


def make_epub(
    title: str,
    authors: list[str],
    chapters: list[Chapter],
    version: int = 3,
    front_matter: str = "",
) -> bytes:
    """An EPUB 3 (navigation document) or EPUB 2 (NCX) e-book, one XHTML file per
    top-level chapter; ``front_matter`` is a title page in the spine but not the contents."""
    files: dict[str, str] = {}
    manifest, spine = [], []
    if front_matter:
        files["OEBPS/title.xhtml"] = _xhtml(title, f"<p>{escape(front_matter)}</p>")
        manifest.append('<item id="front" href="title.xhtml" media-type="application/xhtml+xml"/>')
        spine.append('<itemref idref="front"/>')
    for number, chapter in enumerate(chapters, 1):
        name = f"text/chapter{number}.xhtml"
        files[f"OEBPS/{name}"] = _xhtml(chapter.title, _chapter_body(chapter, 1))
        manifest.append(f'<item id="c{number}" href="{name}" media-type="application/xhtml+xml"/>')
        spine.append(f'<itemref idref="c{number}"/>')
    if version == 3:
        files["OEBPS/nav.xhtml"] = _nav(chapters)
        manifest.append(
            '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>'
        )
        spine.insert(1 if front_matter else 0, '<itemref idref="nav"/>')  # as e-book tools do
        spine_open = "<spine>"
    else:
        files["OEBPS/toc.ncx"] = _ncx(title, chapters)
        manifest.append('<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>')
        spine_open = '<spine toc="ncx">'
    creators = "".join(f"<dc:creator>{escape(a)}</dc:creator>" for a in authors)
    files["OEBPS/content.opf"] = f"""<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="{version}.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="id">urn:uuid:12345</dc:identifier>
    <dc:title>{escape(title)}</dc:title>{creators}<dc:language>en</dc:language>
  </metadata>
  <manifest>{"".join(manifest)}</manifest>
  {spine_open}{"".join(spine)}</spine>
</package>"""
    return zip_files(files)


def zip_files(files: dict[str, str | bytes], mimetype: bool = True) -> bytes:
    """A zip as EPUB wants it: ``mimetype`` first and stored, then the container."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        if mimetype:
            zf.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
            zf.writestr("META-INF/container.xml", CONTAINER)
        for name, data in files.items():
            zf.writestr(name, data)
    return out.getvalue()


def _xhtml(title: str, body: str) -> str:
    return f"""<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
<head><title>{escape(title)}</title></head>
<body>{body}</body></html>"""


def _chapter_body(chapter: Chapter, level: int) -> str:
    anchor = f' id="{chapter.anchor}"' if chapter.anchor else ""
    paragraphs = "".join(f"<p>{escape(p)}</p>" for p in chapter.paragraphs)
    html = f"<h{level}{anchor}>{escape(chapter.title)}</h{level}>{paragraphs}"
    return html + "".join(_chapter_body(child, level + 1) for child in chapter.children)


def _href(number: int, chapter: Chapter) -> str:
    return f"text/chapter{number}.xhtml" + (f"#{chapter.anchor}" if chapter.anchor else "")


def _nav(chapters: list[Chapter]) -> str:
    def items(number: int, entries: list[Chapter]) -> str:
        out = []
        for chapter in entries:
            sub = f"<ol>{items(number, chapter.children)}</ol>" if chapter.children else ""
            out.append(
                f'<li><a href="{_href(number, chapter)}">{escape(chapter.title)}</a>{sub}</li>'
            )
        return "".join(out)

    listed = "".join(items(n, [c]) for n, c in enumerate(chapters, 1))
    return _xhtml(
        "Contents", f'<nav epub:type="toc" id="toc"><h1>Contents</h1><ol>{listed}</ol></nav>'
    )


def _ncx(title: str, chapters: list[Chapter]) -> str:
    counter = iter(range(1, 10_000))

    def points(number: int, entries: list[Chapter]) -> str:
        out = []
        for chapter in entries:
            order = next(counter)
            out.append(
                f'<navPoint id="p{order}" playOrder="{order}"><navLabel><text>{escape(chapter.title)}'
                f'</text></navLabel><content src="{_href(number, chapter)}"/>'
                f"{points(number, chapter.children)}</navPoint>"
            )
        return "".join(out)

    listed = "".join(points(n, [c]) for n, c in enumerate(chapters, 1))
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE ncx PUBLIC "-//NISO//DTD ncx 2005-1//EN" "http://www.daisy.org/z3986/2005/ncx-2005-1.dtd">
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">
<head><meta name="dtb:uid" content="urn:uuid:12345"/></head>
<docTitle><text>{escape(title)}</text></docTitle>
<navMap>{listed}</navMap></ncx>"""


# --- e-mail ------------------------------------------------------------------------------

START = datetime(2024, 3, 4, 9, 0, tzinfo=timezone(timedelta(hours=1)))


def make_message(
    subject: str,
    sender: str,
    to: str,
    body: str,
    *,
    when: datetime = START,
    cc: str = "",
    html: str = "",
    attachments: list[tuple[str, bytes, str]] = (),  # type: ignore[assignment]
    reply_to: EmailMessage | None = None,
    message_id: str | None = None,
) -> EmailMessage:
    """A message with a plain body (and an HTML alternative), attachments given as
    (file name, bytes, MIME type), threaded under ``reply_to``."""
    message = EmailMessage()
    message["Subject"] = subject
    message["From"] = sender
    message["To"] = to
    if cc:
        message["Cc"] = cc
    message["Date"] = format_datetime(when)
    message["Message-ID"] = message_id or make_msgid(domain="example.com")
    if reply_to is not None:
        message["In-Reply-To"] = reply_to["Message-ID"]
        message["References"] = " ".join(
            filter(None, [str(reply_to.get("References") or ""), reply_to["Message-ID"]])
        )
    message.set_content(body)
    if html:
        message.add_alternative(html, subtype="html")
    for name, data, mime in attachments:
        main, sub = mime.split("/", 1)
        message.add_attachment(data, maintype=main, subtype=sub, filename=name)
    return message


def make_mbox(messages: list[EmailMessage]) -> bytes:
    """The messages as one mailbox file, written by the standard library."""
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "box.mbox")
    box = mailbox.mbox(path)
    try:
        for message in messages:
            box.add(message)
        box.flush()
    finally:
        box.close()
    with open(path, "rb") as fh:
        data = fh.read()
    os.unlink(path)
    os.rmdir(folder)
    return data


def make_pdf_bytes(lines: list[str]) -> bytes:
    """A one-page PDF (fpdf2) with these lines."""
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    for line in lines:
        pdf.cell(0, 7, line, new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def make_docx_bytes(blocks: list[tuple[str, str]]) -> bytes:
    """A Word file (python-docx): ("h1"/"h2"/"p", text) blocks."""
    import docx

    document = docx.Document()
    for kind, text in blocks:
        if kind.startswith("h"):
            document.add_heading(text, level=int(kind[1:]))
        else:
            document.add_paragraph(text)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()
