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
    entries: list[Node] = [Node("Root Entry", None, root_children)]
    index = {id(entries[0]): 0}
    pending = [entries[0]]
    while pending:  # number every node, breadth first
        node = pending.pop(0)
        for child in sorted(node.children, key=_key):
            entries.append(child)
            index[id(child)] = len(entries) - 1
            pending.append(child)
    mini, mini_fat, starts = bytearray(), [], {}
    big: list[tuple[int, bytes]] = []
    for node in entries[1:]:
        if node.data is None or not node.data:
            continue
        if len(node.data) < CUTOFF:
            first = len(mini) // MINI
            count = -(-len(node.data) // MINI)
            starts[id(node)] = first
            mini_fat += [first + i + 1 for i in range(count - 1)] + [END]
            mini += node.data.ljust(count * MINI, b"\0")
        else:
            big.append((index[id(node)], node.data))
    sectors: list[bytes] = []
    fat: list[int] = []

    def place(data: bytes) -> int:
        if not data:
            return END
        first = len(sectors)
        count = -(-len(data) // SECTOR)
        for i in range(count):
            sectors.append(data[i * SECTOR : (i + 1) * SECTOR].ljust(SECTOR, b"\0"))
            fat.append(first + i + 1 if i < count - 1 else END)
        return first

    big_starts = {i: place(data) for i, data in big}
    mini_start = place(bytes(mini))
    mini_fat_start = place(b"".join(struct.pack("<I", n) for n in mini_fat))
    directory = b""
    for number, node in enumerate(entries):
        if number == 0:
            start, size = mini_start, len(mini)
        elif node.data is None:
            start, size = 0, 0
        elif not node.data:
            start, size = END, 0
        elif len(node.data) < CUTOFF:
            start, size = starts[id(node)], len(node.data)
        else:
            start, size = big_starts[number], len(node.data)
        directory += _entry(node, number, entries, index, start, size)
    directory_start = place(directory.ljust(-(-len(directory) // SECTOR) * SECTOR, b"\0"))
    fat_sectors = 1
    while (len(sectors) + fat_sectors) > fat_sectors * (SECTOR // 4):
        fat_sectors += 1
    fat_first = len(sectors)
    fat += [FAT_SECT] * fat_sectors
    fat += [FREE] * (fat_sectors * (SECTOR // 4) - len(fat))
    table = b"".join(struct.pack("<I", n) for n in fat)
    sectors += [table[i * SECTOR : (i + 1) * SECTOR] for i in range(fat_sectors)]
    difat = [fat_first + i for i in range(fat_sectors)] + [FREE] * (109 - fat_sectors)
    header = struct.pack(
        "<8s16sHHHHH6sIIIIIIIII",
        bytes.fromhex("D0CF11E0A1B11AE1"), b"\0" * 16, 0x3E, 3, 0xFFFE, 9, 6, b"\0" * 6,
        0, fat_sectors, directory_start, 0, CUTOFF,
        mini_fat_start if mini_fat else END, -(-len(mini_fat) * 4 // SECTOR), END, 0,
    ) + b"".join(struct.pack("<I", n) for n in difat)  # fmt: skip
    return header + b"".join(sectors)


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
