"""Citation-layer helpers.

Search returns the best *chunks*, so one CV can appear several times (its experience
and skills sections both rank high) and the answer stage should see all of them. The
list of sources shown to the user, however, names each candidate once: that
deduplication lives here, not in search.
"""

from __future__ import annotations

from collections.abc import Iterable


def dedupe_by_candidate(hits: Iterable[dict]) -> list[dict]:
    """Keep the first (best-ranked) hit of each candidate, in order."""
    seen: set[str] = set()
    out: list[dict] = []
    for h in hits:
        cid = h["candidate_id"]
        if cid not in seen:
            seen.add(cid)
            out.append(h)
    return out
