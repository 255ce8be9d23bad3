"""What a search takes in and gives back: a query cleaned of control characters, hits dressed from the catalog.

The index holds ids, vectors and filter fields only; chunk text stays in the catalog
(the source of truth). So a ranked hit is "hydrated" here: its text, page and the
candidate's name are read back, a child chunk gets its parent section's text, and a hit
whose chunk the catalog no longer has is dropped rather than cited.
"""

from __future__ import annotations

import re

from cvrag_desktop.catalog import queries as catalog_queries
from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.index.records import RawHit

MAX_QUERY_CHARS = 2000
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def clean_query(query: str | None) -> str:
    """Strip control characters and cap the length at a word boundary."""
    q = _CONTROL.sub(" ", query or "").strip()
    if len(q) > MAX_QUERY_CHARS:
        q = q[:MAX_QUERY_CHARS].rsplit(" ", 1)[0] or q[:MAX_QUERY_CHARS]
    return q


def hydrate_hits(catalog: Catalog, raw: list[RawHit]) -> list[dict]:
    """Attach catalog text, page, name and (for child chunks) the parent section's text."""
    if not raw:
        return []
    rows = catalog_queries.hit_rows(catalog, [h.chunk_id for h in raw])
    parent_text = catalog_queries.parent_texts(catalog, {r["parent_id"] for r in rows.values() if r["parent_id"]})
    out = []
    for h in raw:
        row = rows.get(h.chunk_id)
        if row is None:  # the catalog moved on (deleted meanwhile): never cite a ghost
            continue
        out.append({
            "chunk_id": h.chunk_id, "candidate_id": h.candidate_id, "candidate_name": row["name"],
            "section": h.section, "page": row["page"], "score": round(h.score, 6), "text": row["text"],
            "parent_id": row["parent_id"],
            "parent_text": "\n".join(parent_text.get(row["parent_id"], [])) if row["parent_id"] else None,
        })
    return out
