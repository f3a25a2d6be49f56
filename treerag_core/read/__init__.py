"""read: a source's bytes → rich pages or structured text.

``formats`` is the one table of formats (extensions, MIME types, reader, structure
strategies); ``readers`` turn bytes into pages; ``ocr`` reads scans; ``source`` runs a
reader and the structure strategies and hands back one Markdown-style text.
"""

from .formats import accepted_extensions, check_upload, supported_types
from .source import read_file

__all__ = ["accepted_extensions", "check_upload", "read_file", "supported_types"]
