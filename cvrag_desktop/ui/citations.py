"""From a citation (or job-match evidence) to what the PDF preview shows (Qt-free helpers).

The preview opens the library copy of the CV (``stored_path``; the original file may
have moved), at the cited page, outlines the cited chunk's bbox and highlights the
cited facts on that page, or else the quoted lines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App

from pathlib import Path

MAX_LINES = 8
WINDOW = 4  # words per searched piece of a one-line quote


def find_tiers(citation: dict) -> list[list[str]]:
    """What to search on the page: the cited fact values first, then the quoted lines."""
    facts = [str(f.get("value")) for f in citation.get("facts") or [] if f.get("value")]
    text = citation.get("full_text") or ""
    name = (citation.get("candidate_name") or "").strip().lower()
    lines = [ln.strip() for ln in text.splitlines() if len(ln.strip()) >= 3 and ln.strip().lower() != name]
    if len(lines) <= 1:  # a whitespace-normalised quote: search it in short pieces (they rarely span lines)
        words = (citation.get("quote") or text).split()
        lines = [" ".join(words[i:i + WINDOW]) for i in range(0, len(words), WINDOW)]
    lines = [ln[:80] for ln in lines[:MAX_LINES]]
    return [t for t in (facts, lines) if t]


def resolve_pdf(services: App, citation: dict) -> str | None:
    """The CV file to preview (runs in a worker): the library copy, else the original path."""
    candidates: list[str | None] = []
    cid = citation.get("candidate_id")
    if cid:
        rec = services.people.get_candidate(cid)
        candidates += [rec.get("stored_path"), rec.get("source_path")]
    candidates.append(citation.get("source_path"))
    for p in candidates:
        if p and Path(p).exists():
            return str(p)
    return None
