"""OCR of scanned pages and images with Tesseract, so a scan gets a tree and answers too.

``tesseract`` runs the program on one page image and reads its word boxes; ``scan`` decides
which pages need it, runs them in parallel within a budget, caches the result per image and
turns each page into a :class:`~treerag_core.structure.pages.RichPage` whose lines carry their
height and position, so the same structure strategies read a scan as a born-digital PDF.
"""
