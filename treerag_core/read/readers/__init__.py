"""One module per format: bytes in, :class:`~treerag_core.structure.pages.ReadResult` out.

Readers only read: the format table (:mod:`..formats`) says which reader a file gets, and
the structure strategies (:mod:`..structure`) find its headings afterwards.
"""
