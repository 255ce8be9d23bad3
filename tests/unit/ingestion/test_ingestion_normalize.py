"""Structured facts read from real CVs, with provenance."""

from __future__ import annotations

import datetime as dt

from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document


def _cv(real_cvs_dir, name):
    doc = extract_document(real_cvs_dir / "pdf" / name)
    cv, _ = normalize_document(doc, dt.date(2026, 11, 30))
    return cv, doc


def test_two_column_chromium_cv(real_cvs_dir):
    cv, _ = _cv(real_cvs_dir, "resumematcher_modern_two_column_chromium.pdf")
    assert cv.name == "John Doe"
    assert cv.emails == ["john.doe@email.com"]
    assert cv.current_title == "Senior Software Engineer" and cv.current_company == "Stripe"
    assert cv.companies[:3] == ["Stripe", "Figma", "Notion"]
    assert {"Kubernetes", "Docker", "Go"} <= set(cv.skills)
    assert 6 < cv.years_of_experience < 8.5


def test_provenance_points_at_the_value(real_cvs_dir):
    cv, doc = _cv(real_cvs_dir, "rendercv_classic_johndoe.pdf")
    name = next(p for p in cv.provenance if p.field == "name")
    assert name.page == 0 and name.bbox is not None
    assert doc.text[name.char_start:name.char_end] == "John Doe"
    email = next(p for p in cv.provenance if p.field == "emails")
    assert doc.text[email.char_start:email.char_end] == "john.doe@email.com"


def test_spanish_and_german_headings(real_cvs_dir):
    cv, _ = _cv(real_cvs_dir, "moderncv_template_es.pdf")
    assert {"education", "experience", "languages", "skills"} <= set(cv.sections)
    cv, _ = _cv(real_cvs_dir, "bewerbunglatex_eva_mustermann_de.pdf")
    assert cv.name == "Eva Mustermann" and "education" in cv.sections
    assert any("Veterinär" in d for d in cv.degrees)


def test_overlapping_roles_counted_once():
    from cvrag_desktop.domain import Experience, NormalizedCV

    cv = NormalizedCV(experiences=[
        Experience(title="A", start="2018-01", end="2020-12"),
        Experience(title="B", start="2020-01", end="2021-12"),
    ]).with_derived(dt.date(2026, 1, 1))
    assert cv.years_of_experience == 4.0


def test_skill_aliases_fold(real_cvs_dir):
    from cvrag_desktop.text.vocab.skills import canonical_skill

    assert canonical_skill("k8s") == "Kubernetes"
    assert canonical_skill("Postgres") == "PostgreSQL"
    assert canonical_skill("unknown-thing") is None
