"""The date a CV prints for itself, found in its chunks (the rule is :mod:`cvrag_desktop.text.cvdate`)."""

from __future__ import annotations

import datetime as dt

from cvrag_desktop.domain import Chunk
from cvrag_desktop.text.cvdate import find_cv_date


def cv_date(chunks: list[Chunk]) -> tuple[dt.date, str, Chunk] | None:
    """The CV's own date, the line that prints it and its chunk (None when the CV prints none)."""
    for chunk in chunks:
        found = find_cv_date(chunk.text.splitlines())
        if found:
            return found[0], found[1], chunk
    return None
