"""Which header piece names the employer, read from the section's own convention.

A template prints every role of a section the same way: the employer sits in one slot of
the entry header — after the title on its line ("Data Analyst, Acme"), or on a line of its
own below the title. When one entry offers two pieces that could each be the employer and
vocabulary cannot tell them apart (a surname firm that is also a town's name, beside a place
line), the slot the section's unambiguous entries use decides, as a reader would decide.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from cvrag_desktop.ingestion.fields.entries import RawEntry

Piece = tuple[str, int]  # text, line index
Slot = tuple[int, bool]  # the line's place among the header lines, and whether the title shares that line


def slot_of(entry: RawEntry, piece: Piece, title: Piece | None) -> Slot | None:
    """Where ``piece`` sits in the entry's header (None for a piece outside the header lines)."""
    if piece[1] not in entry.header:
        return None
    return entry.header.index(piece[1]), title is not None and title[1] == piece[1]


def section_slot(observed: Iterable[Slot | None]) -> Slot | None:
    """The employer slot most unambiguous entries of a section use (None without a clear majority)."""
    counts = Counter(s for s in observed if s is not None)
    if not counts:
        return None
    (slot, n), total = counts.most_common(1)[0], sum(counts.values())
    return slot if 2 * n > total else None


def firm_candidates(rest: list[Piece], locations: list[Piece], is_country: Callable[[str], bool]) -> list[Piece]:
    """Pieces that could name the employer: the plain ones, and bare one-part places (a town's
    name is often a surname firm's); never "City, Region" pairs or countries."""
    return [*rest, *(p for p in locations if "," not in p[0] and not is_country(p[0]))]


def pick_by_slot(entry: RawEntry, candidates: list[Piece], title: Piece | None, slot: Slot) -> Piece | None:
    """The one candidate printed in the section's employer slot, if exactly one is."""
    hits = [c for c in candidates if slot_of(entry, c, title) == slot]
    return hits[0] if len(hits) == 1 else None
