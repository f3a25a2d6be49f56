"""Typed exceptions: every failure a person can act on is a ``TreeragError``.

The app shows the message to the user (in the person's language when the error carries a
catalogue key), so messages say what went wrong and what to do, never a raw library
traceback.
"""


class TreeragError(Exception):
    """Base of every error treerag_core raises on purpose.

    ``key`` and ``values``, when given, name the message in the message catalogue
    (:mod:`treerag_core.text.messages`) that ``str(exc)`` words in English, so the app can say
    it in the person's language; errors raised without a key are shown as they are."""

    def __init__(
        self, *args: object, key: str = "", values: dict[str, object] | None = None
    ) -> None:
        super().__init__(*args)
        self.key = key
        self.values = dict(values or {})


class UnsupportedFormatError(TreeragError):
    """The file type is not one we can read (PDF, DOCX, HTML, Markdown, text, URL)."""


class DocumentReadError(TreeragError):
    """The file exists but cannot be read: corrupt, encrypted, empty, or over a limit."""


class EmptyDocumentError(DocumentReadError):
    """The document holds no text to index."""


class OcrUnavailableError(DocumentReadError):
    """Scanned pages need OCR, and Tesseract (Debian package tesseract-ocr) is not installed."""


class ConverterUnavailableError(DocumentReadError):
    """A legacy Office or RTF file needs LibreOffice to be converted, and it is not installed
    (Debian packages libreoffice-writer-nogui, libreoffice-calc-nogui,
    libreoffice-impress-nogui)."""


class DocumentTooLargeError(DocumentReadError):
    """The document exceeds a configured limit (bytes, pages, sections, decompressed size)."""


class FetchError(TreeragError):
    """A URL could not be fetched: refused by the network guard, timed out, too big, wrong type."""


class BlockedURLError(FetchError):
    """The URL points at an address the network guard refuses (loopback, private, metadata...)."""


class RegistryError(TreeragError):
    """The registry cannot be read or written; it is never overwritten silently."""


class DocumentNotFoundError(RegistryError, KeyError):
    """No document with that id or name is in the registry."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "document not found"


class LLMError(TreeragError):
    """A model call failed (HTTP error, timeout, unusable reply) and no fallback applied."""


class StreamBudgetError(LLMError):
    """A streamed answer ran past its length or time budget: what streamed is kept."""


class ConfigError(TreeragError):
    """Provider settings are incomplete or invalid."""


class AccessDeniedError(TreeragError):
    """The principal may not do this. For a document it may not read the message is the same
    as for one that does not exist, and never names the document."""


class NotSignedInError(AccessDeniedError):
    """A team deployment received a request that carries no identity (no sign-in, no proxy
    header): it is refused, never treated as a local admin."""


class InvalidCollectionError(TreeragError):
    """A collection name outside the allowed alphabet, or a member list that is not names."""


class StoreUnavailableError(RegistryError):
    """The database behind the registry cannot be reached, or the connection broke
    mid-operation (the transaction was rolled back: nothing was half-written). Retrying
    later may succeed, so indexing workers retry a job that failed with it."""


class JobsUnavailableError(ConfigError):
    """Queued indexing needs a registry with a job queue (PostgreSQL); a registry file has
    none, so documents are indexed in the process that receives them."""


class InvalidHistoryError(TreeragError):
    """The ``history`` given with a question is not a list of earlier turns."""


class ThreadNotFoundError(TreeragError):
    """No conversation with that id belongs to this person (another person's threads are
    never found, with the same message)."""


class InvalidThreadError(TreeragError):
    """A conversation change that cannot be made: an empty title, a turn that is not there,
    a verdict other than up or down, a thread at its size limit."""


class InvalidQuestionsError(TreeragError):
    """A questions file that cannot be evaluated: not UTF-8 JSONL, or a bad line."""


class EvidenceUnavailableError(TreeragError):
    """The cited page cannot be drawn (the source is gone, or it is not a PDF)."""


class InvalidImportError(TreeragError):
    """The file offered for import is not a valid treerag export."""


class ToolArgumentError(TreeragError):
    """An agent tool was called with an argument it cannot use (an unknown section id, an
    offset past the end, a value out of bounds); the message says what to pass instead."""


class InvalidSourceError(TreeragError):
    """A synced source that cannot be added or synced: a folder that is not there, a bucket
    URL that is not ``s3://bucket/prefix``, an endpoint the network guard refuses, both kinds
    of credentials named, a pattern that is not text."""


class SourceNotFoundError(TreeragError):
    """No synced source with that id in the registry."""


class SyncBusyError(TreeragError):
    """A sync of the same source is already running (in this or another process): the
    second one is refused rather than indexing a file twice."""


class InvalidCardError(TreeragError):
    """A correction to a document's card that cannot be made: a field that is not one of
    kind, periods and description."""


__all__ = [
    "AccessDeniedError",
    "BlockedURLError",
    "ConfigError",
    "ConverterUnavailableError",
    "DocumentNotFoundError",
    "DocumentReadError",
    "DocumentTooLargeError",
    "EmptyDocumentError",
    "EvidenceUnavailableError",
    "FetchError",
    "InvalidCardError",
    "InvalidCollectionError",
    "InvalidHistoryError",
    "InvalidImportError",
    "InvalidQuestionsError",
    "InvalidSourceError",
    "InvalidThreadError",
    "JobsUnavailableError",
    "LLMError",
    "StreamBudgetError",
    "NotSignedInError",
    "OcrUnavailableError",
    "RegistryError",
    "SourceNotFoundError",
    "StoreUnavailableError",
    "SyncBusyError",
    "ThreadNotFoundError",
    "ToolArgumentError",
    "TreeragError",
    "UnsupportedFormatError",
]
