"""Typed errors shown to users.

Each carries a ``status`` (stored in the catalog for a file) and a message a
recruiter can act on. The UI maps them to inline messages; anything else is a bug.
"""

from __future__ import annotations


class CvragError(Exception):
    """Base of every user-facing error."""

    status = "failed"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UnsupportedFormat(CvragError):
    """The file is not a PDF or DOCX (or only pretends to be)."""

    status = "unsupported"


class PdfUnreadable(CvragError):
    """The file is corrupt, truncated or empty."""

    status = "unreadable"


class PdfEncrypted(CvragError):
    """The PDF needs a password to open."""

    status = "encrypted"


class NeedsOcr(CvragError):
    """The pages are images and no OCR engine produced text."""

    status = "needs_ocr"


class TooLarge(CvragError):
    """The file exceeds a size, page, character or time limit."""

    status = "too_large"


class NoCvContent(CvragError):
    """Text was read but nothing resembling a CV was found."""

    status = "no_content"


class FileMissing(CvragError):
    """The file disappeared or cannot be read (permissions)."""

    status = "missing"


class Cancelled(CvragError):
    """The user cancelled the operation."""

    status = "cancelled"


class LlmUnavailable(CvragError):
    """No language model answered at the configured endpoint."""

    status = "llm_unavailable"


class LlmTimedOut(LlmUnavailable):
    """The language model did not answer within its timeout (the circuit breaker marks it down at once)."""


class LlmOutputInvalid(CvragError):
    """The language model answered with something that failed validation."""

    status = "llm_invalid"


class IndexLocked(CvragError):
    """Another process holds the search index."""

    status = "index_locked"


class NotFound(CvragError):
    """A requested record (candidate, file, shortlist) does not exist."""

    status = "not_found"


class InvalidInput(CvragError):
    """A parameter given by the user is invalid."""

    status = "invalid_input"


class CatalogDamaged(CvragError):
    """The catalog database fails its integrity check (truncated, zeroed, overwritten)."""

    status = "catalog_damaged"


class CatalogMissing(CvragError):
    """The catalog is empty or gone while the library still holds imported files."""

    status = "catalog_missing"


class StoreReadOnly(CvragError):
    """The data folder (or a database in it) cannot be written; reads still work."""

    status = "read_only"


class DiskFull(CvragError):
    """No space left on the device holding the data folder."""

    status = "disk_full"


class LlmReplyTooLarge(LlmOutputInvalid):
    """The language model's reply exceeded the size cap; it was refused, not stored."""

    status = "llm_too_large"


class IndexDamaged(CvragError):
    """The search index could not be opened or rebuilt."""

    status = "index_damaged"


class IndexNotSaved(CvragError):
    """The search index could not write its changes to disk (they are in its log or come back from the catalog)."""

    status = "index_not_saved"


class WorkerStartFailed(CvragError):
    """Parse worker processes kept dying before they could take a file (memory or process limits)."""

    status = "worker_failed"


class SelfTestFailure(Exception):
    """A self-test step ran but its result was wrong (an empty search, a missing citation, ...).

    Not a :class:`CvragError`: it is never shown to a recruiter, only printed by ``--self-test``;
    it lives here so the self-test and its window step (in ``ui/``) share it without importing each other.
    """
