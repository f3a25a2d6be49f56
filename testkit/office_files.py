"""Real office files built from a description, for the tests and ``bench.formats``.

Decks and workbooks are written by python-pptx and openpyxl (the libraries real tools'
files are read with); OpenDocument files are written as their XML directly (a zip with a
``mimetype`` first, a manifest and ``content.xml``), as LibreOffice lays them out; legacy
.doc/.xls/.ppt files are converted from those by LibreOffice itself.
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

from treerag_core.limits import Limits
from treerag_core.read.readers.libreoffice import convert


@dataclass
class Slide:
    title: str = ""  # "" leaves the title placeholder empty (an untitled slide)
    bullets: list[str] = field(default_factory=list)
    notes: str = ""
    table: list[list[str]] | None = None
    group: list[str] = field(default_factory=list)  # text boxes grouped into one shape
    smartart: list[str] = field(default_factory=list)  # a SmartArt diagram's points


def make_deck(path: Path, slides: list[Slide], sections: list[tuple[str, int]] = ()) -> Path:
    """A .pptx; ``sections`` are PowerPoint sections as (name, number of slides in it)."""
    from pptx import Presentation
    from pptx.util import Inches, Pt

    deck = Presentation()
    for spec in slides:
        slide = deck.slides.add_slide(deck.slide_layouts[1 if spec.bullets else 5])
        if spec.title:
            slide.shapes.title.text = spec.title
        if spec.bullets:
            body = slide.placeholders[1].text_frame
            body.text = spec.bullets[0]
            for bullet in spec.bullets[1:]:
                body.add_paragraph().text = bullet
        if spec.table:
            rows, cols = len(spec.table), len(spec.table[0])
            frame = slide.shapes.add_table(
                rows, cols, Inches(0.5), Inches(4.5), Inches(9), Inches(2)
            )
            for r, row in enumerate(spec.table):
                for c, value in enumerate(row):
                    frame.table.cell(r, c).text = value
        if spec.group:
            group = slide.shapes.add_group_shape()
            for i, text in enumerate(spec.group):
                box = group.shapes.add_textbox(
                    Inches(0.5 + 3 * i), Inches(6.5), Inches(3), Inches(0.5)
                )
                box.text_frame.text = text
                box.text_frame.paragraphs[0].runs[0].font.size = Pt(14)
        if spec.smartart:
            _add_smartart(slide, spec.smartart)
        if spec.notes:
            slide.notes_slide.notes_text_frame.text = spec.notes
        if not spec.title:
            slide.shapes.title._element.getparent().remove(slide.shapes.title._element)
    if sections:
        _add_sections(deck, sections)
    deck.save(str(path))
    return path


_P14 = "http://schemas.microsoft.com/office/powerpoint/2010/main"
_SECTION_EXT = "{521415D9-36F7-43E2-AB2F-B90AF26B5E84}"


def _add_sections(deck: object, sections: list[tuple[str, int]]) -> None:
    """PowerPoint's section list (p14:sectionLst) in the presentation part's extLst."""
    from lxml import etree

    ids = [slide.slide_id for slide in deck.slides]  # type: ignore[attr-defined]
    root = deck.part._element  # type: ignore[attr-defined]
    p_ns = root.nsmap["p"]
    ext_list = etree.SubElement(root, f"{{{p_ns}}}extLst")
    ext = etree.SubElement(ext_list, f"{{{p_ns}}}ext", uri=_SECTION_EXT)
    listing = etree.SubElement(ext, f"{{{_P14}}}sectionLst", nsmap={"p14": _P14})
    at = 0
    for n, (name, count) in enumerate(sections):
        section = etree.SubElement(
            listing, f"{{{_P14}}}section", name=name, id=f"{{00000000-0000-0000-0000-{n:012d}}}"
        )
        slide_ids = etree.SubElement(section, f"{{{_P14}}}sldIdLst")
        for slide_id in ids[at : at + count]:
            etree.SubElement(slide_ids, f"{{{_P14}}}sldId", id=str(slide_id))
        at += count


_DGM = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
_A = "http://schemas.openxmlformats.org/drawingml/2006/main"
_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def _add_smartart(slide: object, points: list[str]) -> None:
    """A SmartArt frame whose text lives in a diagram data part, as PowerPoint writes it."""
    from lxml import etree
    from pptx.opc.package import Part
    from pptx.opc.packuri import PackURI

    pts = "".join(
        f'<dgm:pt modelId="{{{n + 1:08d}-0000-0000-0000-000000000000}}"><dgm:t><a:bodyPr/>'
        f"<a:p><a:r><a:t>{escape(text)}</a:t></a:r></a:p></dgm:t></dgm:pt>"
        for n, text in enumerate(points)
    )
    blob = (
        f'<dgm:dataModel xmlns:dgm="{_DGM}" xmlns:a="{_A}"><dgm:ptLst>{pts}</dgm:ptLst>'
        "</dgm:dataModel>"
    ).encode()
    package = slide.part.package  # type: ignore[attr-defined]
    number = len([p for p in package.iter_parts() if "diagrams/data" in str(p.partname)]) + 1
    part = Part(
        PackURI(f"/ppt/diagrams/data{number}.xml"),
        "application/vnd.openxmlformats-officedocument.drawingml.diagramData+xml",
        package,
        blob,
    )
    rel = slide.part.relate_to(  # type: ignore[attr-defined]
        part, "http://schemas.openxmlformats.org/officeDocument/2006/relationships/diagramData"
    )
    frame = etree.fromstring(
        f'<p:graphicFrame xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"'
        f' xmlns:a="{_A}" xmlns:r="{_R}"><p:nvGraphicFramePr><p:cNvPr id="90" name="Diagram"/>'
        "<p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>"
        '<p:xfrm><a:off x="457200" y="5000000"/><a:ext cx="8000000" cy="1000000"/></p:xfrm>'
        f'<a:graphic><a:graphicData uri="{_DGM}"><dgm:relIds xmlns:dgm="{_DGM}" r:dm="{rel}"'
        ' r:lo="" r:qs="" r:cs=""/></a:graphicData></a:graphic></p:graphicFrame>'
    )
    slide.shapes._spTree.append(frame)  # type: ignore[attr-defined]


def make_workbook(
    path: Path,
    sheets: dict[str, list[list[object]]],
    hidden: tuple[str, ...] = (),
    merges: dict[str, list[str]] | None = None,
    number_format: str = "#,##0",
) -> Path:
    """An .xlsx; numbers get ``number_format`` (thousands separators, as people set them)."""
    import openpyxl

    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
            for cell in sheet[sheet.max_row]:
                if isinstance(cell.value, int | float) and not isinstance(cell.value, bool):
                    cell.number_format = number_format
        for area in (merges or {}).get(name, []):
            sheet.merge_cells(area)
        if name in hidden:
            sheet.sheet_state = "hidden"
    book.save(str(path))
    return path


def make_csv(
    path: Path, rows: list[list[object]], delimiter: str = ",", encoding: str = "utf-8"
) -> Path:
    import csv

    buffer = io.StringIO()
    csv.writer(buffer, delimiter=delimiter, lineterminator="\n").writerows(rows)
    path.write_bytes(buffer.getvalue().encode(encoding))
    return path


# --- OpenDocument ---------------------------------------------------------------------------

_ODF_NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
    'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" '
    'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" '
    'office:version="1.3"'
)


def _odf(path: Path, mime: str, styles: str, body: str) -> Path:
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {_ODF_NS}>'
        f"<office:automatic-styles>{styles}</office:automatic-styles>"
        f"<office:body>{body}</office:body></office:document-content>"
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
        'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
        f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{mime}"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
        "</manifest:manifest>"
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), mime, compress_type=zipfile.ZIP_STORED)
        archive.writestr("META-INF/manifest.xml", manifest)
        archive.writestr("content.xml", content)
    return path


def _odf_table(rows: list[list[object]]) -> str:
    out = []
    for row in rows:
        cells = "".join(_odf_cell(value) for value in row)
        out.append(f"<table:table-row>{cells}</table:table-row>")
    return "".join(out)


def _odf_cell(value: object) -> str:
    if value is None or value == "":
        return "<table:table-cell/>"
    if isinstance(value, dt.date):
        return (
            f'<table:table-cell office:value-type="date" office:date-value="{value.isoformat()}">'
            f"<text:p>{value:%d/%m/%Y}</text:p></table:table-cell>"
        )
    if isinstance(value, int | float):
        return (
            f'<table:table-cell office:value-type="float" office:value="{value}">'
            f"<text:p>{value:,}</text:p></table:table-cell>"
        )
    return f'<table:table-cell office:value-type="string"><text:p>{escape(str(value))}</text:p></table:table-cell>'


def make_odt(path: Path, blocks: list[tuple[str, object]]) -> Path:
    """An .odt of ("h1".."h3", title), ("p", text), ("styled1", title: a paragraph in the
    Heading 1 style) and ("table", rows) blocks."""
    styles = (
        '<style:style style:name="P1" style:family="paragraph" '
        'style:parent-style-name="Heading_20_1"/>'
    )
    body = []
    for kind, value in blocks:
        if kind.startswith("h"):
            body.append(f'<text:h text:outline-level="{kind[1]}">{escape(str(value))}</text:h>')
        elif kind == "styled1":
            body.append(f'<text:p text:style-name="P1">{escape(str(value))}</text:p>')
        elif kind == "table":
            body.append(f'<table:table table:name="T">{_odf_table(value)}</table:table>')  # type: ignore[arg-type]
        else:
            body.append(f"<text:p>{escape(str(value))}</text:p>")
    mime = "application/vnd.oasis.opendocument.text"
    return _odf(path, mime, styles, f"<office:text>{''.join(body)}</office:text>")


def make_ods(
    path: Path, sheets: dict[str, list[list[object]]], hidden: tuple[str, ...] = ()
) -> Path:
    styles = (
        '<style:style style:name="ta_hidden" style:family="table">'
        '<style:table-properties table:display="false"/></style:style>'
    )
    tables = []
    for name, rows in sheets.items():
        style = ' table:style-name="ta_hidden"' if name in hidden else ""
        tail = '<table:table-row table:number-rows-repeated="1048000"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>'
        tables.append(
            f'<table:table table:name="{escape(name)}"{style}>{_odf_table(rows)}{tail}</table:table>'
        )
    mime = "application/vnd.oasis.opendocument.spreadsheet"
    return _odf(path, mime, styles, f"<office:spreadsheet>{''.join(tables)}</office:spreadsheet>")


def make_odp(path: Path, slides: list[Slide]) -> Path:
    pages = []
    for n, spec in enumerate(slides, 1):
        frames = []
        if spec.title:
            frames.append(
                '<draw:frame presentation:class="title" svg:x="1cm" svg:y="1cm">'
                f"<draw:text-box><text:p>{escape(spec.title)}</text:p></draw:text-box></draw:frame>"
            )
        if spec.bullets:
            items = "".join(
                f"<text:list-item><text:p>{escape(b)}</text:p></text:list-item>"
                for b in spec.bullets
            )
            frames.append(
                '<draw:frame presentation:class="outline" svg:x="1cm" svg:y="4cm"><draw:text-box>'
                f"<text:list>{items}</text:list></draw:text-box></draw:frame>"
            )
        if spec.table:
            frames.append(
                f'<draw:frame svg:x="1cm" svg:y="9cm"><table:table>{_odf_table(spec.table)}'  # type: ignore[arg-type]
                "</table:table></draw:frame>"
            )
        notes = ""
        if spec.notes:
            notes = (
                '<presentation:notes><draw:frame presentation:class="notes"><draw:text-box>'
                f"<text:p>{escape(spec.notes)}</text:p></draw:text-box></draw:frame></presentation:notes>"
            )
        pages.append(f'<draw:page draw:name="page{n}">{"".join(frames)}{notes}</draw:page>')
    mime = "application/vnd.oasis.opendocument.presentation"
    return _odf(path, mime, "", f"<office:presentation>{''.join(pages)}</office:presentation>")


def make_legacy(source: Path, target_ext: str) -> Path:
    """``source`` (.docx/.xlsx/.pptx) converted by LibreOffice to .doc, .xls, .ppt, .rtf or .odt."""
    filters = {"doc": "doc:MS Word 97", "xls": "xls:MS Excel 97", "ppt": "ppt:MS PowerPoint 97",
               "rtf": "rtf:Rich Text Format", "odt": "odt:writer8"}  # fmt: skip
    data = convert(source.read_bytes(), source.name, source.suffix, filters[target_ext], Limits())
    out = source.with_suffix(f".{target_ext}")
    out.write_bytes(data)
    return out
