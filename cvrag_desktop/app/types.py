"""Typed shapes of the application layer's requests and results.

Most results are the very dicts the CLI prints as JSON and the GUI shows, so their keys
are fixed by what users and scripts already read: they are typed here as ``TypedDict``
(the dict passes through unchanged, byte for byte), never re-shaped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypedDict

Progress = Callable[[int, int, str], None]
"""``progress(done, total, note)``: how far a long operation is (any front end can show it)."""
ShouldCancel = Callable[[], bool]
"""``should_cancel()``: True when the user asked a long operation to stop."""


class SearchFilterRequest(TypedDict, total=False):
    """The filters of a search request, as the CLI's options and the GUI's facets give them (all optional)."""

    skills: list[str]
    degrees: list[str]
    languages: list[str]
    companies: list[str]
    titles: list[str]
    institutions: list[str]
    names: list[str]
    min_years: int
    max_years: int
    location: str


class ScreeningChange(TypedDict, total=False):
    """A change to people's screening: any of status, rating, note, the tags (all, or some to add or remove),
    the status's reason."""

    status: str
    rating: int | str | None
    note: str
    tags: list[str]
    add_tags: list[str]
    remove_tags: list[str]
    reason: str


class ForgetReport(TypedDict, total=False):
    """What a forget removed (``catalog/compliance/forget.py``), and what is still pending."""

    candidate_ids: list[str]
    files_removed: int
    threads_removed: list[dict]
    pending: list[str]
    pending_reason: str
    refused: list[str]
    leftovers: dict
    audit_error: str
    files: list[dict]


class SearchSplit(TypedDict):
    """A ranked search cut at the relevance floor: main and weaker hits, people counted, suggestions."""

    main: list[dict]
    weaker: list[dict]
    main_people: int
    weaker_people: int
    suggestions: list[str]


class RebuildReport(TypedDict):
    """The outcome of ``cvrag doctor --rebuild-catalog``."""

    library_files: int
    ingested: int
    duplicates: int
    failed: list[dict]
    resumed: bool
    complete: bool
    damaged_catalog_kept_as: str | None  # the catalog failed its check and was set aside
    previous_catalog_kept_as: str | None  # a sound catalog, rebuilt because the user asked
    incomplete: str | None


class MergeResult(TypedDict):
    """The person documents were merged into, and all of its documents."""

    person_id: str
    documents: list[str]


class SplitResult(TypedDict):
    """The new person of the split document, and the person the rest stays with."""

    person_id: str
    rest_person_id: str


class RevealResult(TypedDict):
    """A deliberate reveal in blind screening: who the candidate is, who looked and when."""

    id: str
    name: str | None
    revealed_by: str
    revealed_at: str


class SubjectExport(TypedDict):
    """A subject-access export: the zip written and how much it holds."""

    path: str
    documents: int
    originals: int
    audit_entries: int
    chat_threads: int


class ConsentResult(TypedDict):
    """A person's consent to be kept until a day (None: withdrawn)."""

    person_id: str
    consent_until: str | None


class RetentionStatus(TypedDict):
    """The retention policy and every person's clock, soonest due first."""

    policy: dict[str, Any]
    people: list[dict]


class PurgeReport(TypedDict):
    """The confirmed retention purge: people and documents forgotten, threads removed, steps pending."""

    purged: int
    documents: int
    threads_removed: list[dict]
    pending: list[str]


class WarmUp(TypedDict, total=False):
    """What the GUI's start-up warm-up did: step timings (ms), the status facts, the model state."""

    timings: dict[str, int]
    doctor: dict
    llm_up: bool
    error: str
