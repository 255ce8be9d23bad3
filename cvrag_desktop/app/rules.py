"""The core's rules and words that front ends show or apply, re-exported in ONE place.

The GUI and the CLI import only the application layer; the screening statuses, the
retention presets, blind screening's redaction, the facet filters, the job-match
vocabulary and the rank explanation's marks are core rules, reached through here. When
a rule moves inside the core (e.g. the vocabulary into ``cvrag_desktop/text/``), only
the import lines below change.
"""

from __future__ import annotations

# job-match words and rank explanations
from cvrag_desktop.assistant.jobmatch.export import shortlist_name, top_ids, unread_requirements
from cvrag_desktop.assistant.jobmatch.rank_explain import missed_must_haves
from cvrag_desktop.assistant.jobmatch.rank_explain_export import MARK, STATUS, explanation_text, headline

# set-aside copies and retention
from cvrag_desktop.catalog.compliance.leftovers import RETENTION_DAYS as LEFTOVER_RETENTION_DAYS
from cvrag_desktop.catalog.compliance.retention import NOT_LEGAL_ADVICE, PRESETS

# blind screening: pseudonyms and redaction
from cvrag_desktop.catalog.privacy.blind import (
    HIDDEN,
    NAME_MARK,
    identifiers,
    pseudonym,
    redact_answer,
    redact_detail,
    redact_row,
    redact_text,
    redaction_boxes,
    redaction_strings,
    row_pseudonym,
)
from cvrag_desktop.catalog.privacy.blind_page import page_boxes

# screening statuses, reasons and the state of one person
from cvrag_desktop.catalog.screening import MAX_REASON, STATUS_LABELS, STATUS_REASONS, STATUSES, Screening
from cvrag_desktop.config import Settings
from cvrag_desktop.index import STRATEGIES

# facet filter rules (one function per rule, in the vocabulary room)
from cvrag_desktop.text.rules import speaks, years_within

__all__ = [
    "HIDDEN", "LEFTOVER_RETENTION_DAYS", "MARK", "MAX_REASON", "NAME_MARK", "NOT_LEGAL_ADVICE", "PRESETS",
    "STATUS", "STATUSES", "STATUS_LABELS", "STATUS_REASONS", "STRATEGIES", "Screening", "Settings",
    "explanation_text", "headline", "identifiers", "missed_must_haves", "page_boxes", "pseudonym",
    "redact_answer", "redact_detail", "redact_row", "redact_text", "redaction_boxes", "redaction_strings",
    "row_pseudonym", "shortlist_name", "speaks", "top_ids", "unread_requirements", "years_within",
]
