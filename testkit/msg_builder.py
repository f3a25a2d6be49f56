"""Write a real Outlook ``.msg`` file for the tests: a compound file (CFB, version 3) holding
the MAPI property streams Outlook saves ([MS-OXMSG]), since no library writes them.

Streams under 4,096 bytes live in the mini stream (64-byte sectors), larger ones in
512-byte sectors; the directory's siblings are chained in the sort order CFB requires
(shorter names first, then by upper-case name), which readers accept as a tree.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

SECTOR, MINI, CUTOFF = 512, 64, 4096
FREE, END, FAT_SECT, NONE = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFF


@dataclass
class Node:
    name: str
    data: bytes | None = None  # a stream; None for a storage
    children: list[Node] = field(default_factory=list)


def _key(node: Node) -> tuple[int, str]:
    return (len(node.name), node.name.upper())


def compound_file(root_children: list[Node]) -> bytes:
    """The compound file of these storages and streams under its root."""
    entries = _numbered(Node("Root Entry", None, root_children))
    index = {id(node): number for number, node in enumerate(entries)}
    mini, mini_fat, where = bytearray(), [], {}
    for node in entries[1:]:
        if node.data and len(node.data) < CUTOFF:
            first, count = len(mini) // MINI, -(-len(node.data) // MINI)
            where[id(node)] = first
            mini_fat += [first + i + 1 for i in range(count - 1)] + [END]
            mini += node.data.ljust(count * MINI, b"\0")
    out = _Sectors()
    for node in entries[1:]:
        if node.data and len(node.data) >= CUTOFF:
            where[id(node)] = out.place(node.data)
    where[id(entries[0])] = out.place(bytes(mini))
    mini_fat_start = out.place(b"".join(struct.pack("<I", n) for n in mini_fat))
    directory = b""
    for number, node in enumerate(entries):
        size = len(mini) if number == 0 else len(node.data or b"")
        start = where.get(id(node), 0 if node.data is None else END)
        directory += _entry(node, number, entries, index, start, size)
    directory_start = out.place(directory)
    return out.finish(directory_start, mini_fat_start if mini_fat else END, len(mini_fat))


def _numbered(root: Node) -> list[Node]:
    """Every node, breadth first, each storage's children in CFB's sort order."""
    entries, pending = [root], [root]
    while pending:
        for child in sorted(pending.pop(0).children, key=_key):
            entries.append(child)
            pending.append(child)
    return entries


class _Sectors:
    """The file's 512-byte sectors and their allocation table (FAT)."""

    def __init__(self) -> None:
        self.sectors: list[bytes] = []
        self.fat: list[int] = []

    def place(self, data: bytes) -> int:
        """Store ``data`` in a chain of sectors; its first sector (END when empty)."""
        if not data:
            return END
        first, count = len(self.sectors), -(-len(data) // SECTOR)
        for i in range(count):
            self.sectors.append(data[i * SECTOR : (i + 1) * SECTOR].ljust(SECTOR, b"\0"))
            self.fat.append(first + i + 1 if i < count - 1 else END)
        return first

    def finish(self, directory_start: int, mini_fat_start: int, mini_fat_entries: int) -> bytes:
        """The header, then every sector, the FAT's own sectors last."""
        fat_sectors = 1
        while len(self.sectors) + fat_sectors > fat_sectors * (SECTOR // 4):
            fat_sectors += 1
        first = len(self.sectors)
        fat = self.fat + [FAT_SECT] * fat_sectors
        fat += [FREE] * (fat_sectors * (SECTOR // 4) - len(fat))
        table = b"".join(struct.pack("<I", n) for n in fat)
        difat = [first + i for i in range(fat_sectors)] + [FREE] * (109 - fat_sectors)
        header = struct.pack(
            "<8s16sHHHHH6sIIIIIIIII",
            bytes.fromhex("D0CF11E0A1B11AE1"), b"\0" * 16, 0x3E, 3, 0xFFFE, 9, 6, b"\0" * 6,
            0, fat_sectors, directory_start, 0, CUTOFF,
            mini_fat_start, -(-mini_fat_entries * 4 // SECTOR), END, 0,
        ) + b"".join(struct.pack("<I", n) for n in difat)  # fmt: skip
        return header + b"".join(self.sectors) + table


def _entry(
    node: Node, number: int, entries: list[Node], index: dict, start: int, size: int
) -> bytes:
    name = node.name.encode("utf-16-le") + b"\0\0"
    kind = 5 if number == 0 else (1 if node.data is None else 2)
    siblings = _siblings(entries, index, node)
    kids = sorted(node.children, key=_key)
    child = index[id(kids[0])] if kids else NONE
    return struct.pack(
        "<64sHBBIII16sIQQIQ",
        name.ljust(64, b"\0"), len(name), kind, 1, NONE, siblings, child, b"\0" * 16, 0, 0, 0,
        start, size,
    )  # fmt: skip


def _siblings(entries: list[Node], index: dict, node: Node) -> int:
    """The next sibling in sort order (the chain goes right)."""
    for parent in entries:
        kids = sorted(parent.children, key=_key)
        for i, kid in enumerate(kids):
            if kid is node:
                return index[id(kids[i + 1])] if i + 1 < len(kids) else NONE
    return NONE


def _prop_stream(header: bytes, props: list[tuple[int, int, bytes]]) -> bytes:
    """A ``__properties_version1.0`` stream: fixed values inline, variable ones by size."""
    out = header
    for tag, kind, value in props:
        if kind in (0x001F, 0x0102):
            out += struct.pack("<IIII", (tag << 16) | kind, 6, len(value), 0)
        else:
            out += struct.pack("<II", (tag << 16) | kind, 6) + value.ljust(8, b"\0")
    return out


def _props(props: list[tuple[int, int, bytes]], header: bytes) -> list[Node]:
    nodes = [Node("__properties_version1.0", _prop_stream(header, props))]
    for tag, kind, value in props:
        if kind in (0x001F, 0x0102):
            nodes.append(Node(f"__substg1.0_{tag:04X}{kind:04X}", value))
    return nodes


def _text(value: str) -> bytes:
    return value.encode("utf-16-le")


def make_msg(headers: str, subject: str, body: str, attachments: list[tuple[str, bytes]]) -> bytes:
    """An Outlook message (IPM.Note) with its transport headers, plain body and attachments
    stored by value."""
    props = [
        (0x001A, 0x001F, _text("IPM.Note")),
        (0x0037, 0x001F, _text(subject)),
        (0x1000, 0x001F, _text(body)),
        (0x007D, 0x001F, _text(headers)),
        (0x340D, 0x0003, struct.pack("<I", 0x40000)),  # strings are Unicode
    ]
    top_header = struct.pack(
        "<8sIIII8s", b"\0" * 8, 0, len(attachments), 0, len(attachments), b"\0" * 8
    )
    children = _props(props, top_header)
    children.append(
        Node(
            "__nameid_version1.0",
            None,
            [Node(f"__substg1.0_000{n}0102", b"") for n in (2, 3, 4)],
        )
    )
    for number, (name, data) in enumerate(attachments):
        attach = [
            (0x3705, 0x0003, struct.pack("<I", 1)),  # attached by value
            (0x3707, 0x001F, _text(name)),
            (0x3701, 0x0102, data),
        ]
        children.append(Node(f"__attach_version1.0_#{number:08X}", None, _props(attach, b"\0" * 8)))
    return compound_file(children)
