"""Invented CVs for the confidence tests: a minimal PDF with one well-read and one doubtful role,
and hand-made records whose provenance carries scores (as an import stores them)."""

from __future__ import annotations

from pathlib import Path

from cvrag_desktop.domain import Experience, NormalizedCV, Provenance
from tests.support.minipdf import write_pdf

# the second role has no job-title words and its employer no legal form: both read with low confidence
PAGE = [
    (50, 40, "Marisol Quenby", 24, True), (50, 72, "Backend Engineer"), (50, 86, "m.quenby@example.org"),
    (50, 120, "Experience", 14, True),
    (50, 140, "Senior Software Engineer", 11, True), (350, 140, "Jan 2020 – Present"),
    (50, 154, "Brindle Systems GmbH"), (50, 168, "• Built the billing service and kept it fast"),
    (50, 190, "Zephyr Tinkerer", 11, True), (350, 190, "Mar 2016 – Dec 2019"),
    (50, 204, "Okapi Marmalade"), (50, 218, "• Looked after the workshop and the stock"),
    (50, 250, "Education", 14, True),
    (50, 270, "Master of Science in Computer Science", 11, True), (350, 270, "2014 – 2016"),
    (50, 284, "University of Tarnow"),
]


def write_page(folder: Path) -> Path:
    """The minimal PDF of :data:`PAGE` in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    return write_pdf(folder / "quenby.pdf", [PAGE])


def doubtful_cv(name: str = "Ivo Brandt", title: str = "Zephyr Tinkerer", company: str = "Okapi Marmalade",
                title_score: float = 0.45) -> NormalizedCV:
    """A record whose current title is scored ``title_score`` (low by default) and the rest high."""
    reason = "title: no job-title vocabulary" if title_score < 0.5 else None
    prov = [
        Provenance(field="name", value=name, page=0, bbox=(50, 40, 200, 64), confidence=0.9,
                   reason="name: no e-mail agreement"),
        Provenance(field="experiences[0].title", value=title, page=0, bbox=(50, 140, 200, 152),
                   confidence=title_score, reason=reason),
        Provenance(field="experiences[0].company", value=company, page=0, bbox=(50, 154, 200, 166),
                   confidence=0.8),
        Provenance(field="current_title", value=title, page=0, bbox=(50, 140, 200, 152), confidence=title_score,
                   reason=reason),
        Provenance(field="current_company", value=company, page=0, bbox=(50, 154, 200, 166), confidence=0.8),
    ]
    return NormalizedCV(name=name, experiences=[Experience(title=title, company=company, start="2020-01",
                                                           is_current=True)],
                        current_title=title, current_company=company, skills=["Python"], provenance=prov)
