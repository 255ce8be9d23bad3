"""The line roles of the zoo's documents: the role names, one labelled line, and the parts lines print.

:mod:`align` gives every line of a rendered document its role (the most specific field part it prints)
and :mod:`repairs` mends what a template breaks or repeats; both speak this vocabulary.
"""

from __future__ import annotations

from dataclasses import dataclass, field

NAME, HEADLINE, CONTACT, LABEL, HEADING = "name", "headline", "contact", "label", "heading"
TITLE, EMPLOYER, DATES, PLACE = "title", "employer", "dates", "location"
DEGREE, INSTITUTION = "degree", "institution"
BODY, SKILL, LANGUAGE, CERT, FURNITURE, OTHER = "body", "skill", "language", "certification", "furniture", "other"
# The most specific part names the line (an entry header "Title, Employer  2019 – 2021" is a title).
PRIORITY = (NAME, HEADING, HEADLINE, TITLE, DEGREE, EMPLOYER, INSTITUTION, DATES, CONTACT, LABEL, CERT,
            LANGUAGE, SKILL, PLACE, BODY, FURNITURE)
ROLES = (*PRIORITY, OTHER)
LISTED = frozenset({SKILL, LANGUAGE, CERT})


@dataclass
class LineRole:
    """One line of the document with its role and the field parts it prints."""

    i: int
    page: int
    bbox: tuple[float, float, float, float]
    size: float
    bold: bool
    text: str
    role: str = OTHER
    parts: list[dict] = field(default_factory=list)  # {"field": TITLE, "ref": "experiences[2]"}

    def row(self) -> dict:
        """The JSONL row written next to the truth."""
        return {"i": self.i, "page": self.page, "bbox": [round(v, 1) for v in self.bbox],
                "size": round(self.size, 2), "bold": self.bold, "text": self.text, "role": self.role,
                "parts": self.parts}


def found_parts(rows: list[dict]) -> dict[str, set[str]]:
    """field -> the refs some line prints, from :meth:`LineRole.row` rows (or the lines' own parts)."""
    found: dict[str, set[str]] = {}
    for row in rows:
        for p in row["parts"]:
            found.setdefault(p["field"], set()).add(p["ref"])
    return found
