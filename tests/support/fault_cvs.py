"""Invented CVs for the fault tests (no real person's text)."""

from __future__ import annotations

from pathlib import Path

from tests.support.minipdf import write_pdf

NAME = "Quillon Verbrugge"
EMAIL = "quillon.verbrugge@example.org"
PHRASE = "Designed the zephyrine ledger reconciliation engine for Brontide Logistics"


def cv_items(name: str, email: str, phrase: str, title: str = "Backend Engineer",
             school: str = "Universidad de Salamanca") -> list:
    """One page: name, contact, experience with a distinctive line, skills, education."""
    return [
        (60, 40, name, 20, True),
        (60, 70, f"{title} · {email} · +34 611 222 333"),
        (60, 110, "EXPERIENCE", 12, True),
        (60, 130, f"{title}, Brontide Logistics, Madrid", 10, True),
        (60, 145, "Jan 2019 - Present"),
        (60, 160, phrase),
        (60, 200, "SKILLS", 12, True),
        (60, 220, "Python, Kafka, PostgreSQL, Docker"),
        (60, 260, "EDUCATION", 12, True),
        (60, 280, f"BSc Computer Science, {school}, 2018"),
    ]


def write_cv(folder: Path, stem: str, name: str = NAME, email: str = EMAIL, phrase: str = PHRASE,
             school: str = "Universidad de Salamanca") -> Path:
    """Write one invented CV PDF and return its path."""
    folder.mkdir(parents=True, exist_ok=True)
    return write_pdf(folder / f"{stem}.pdf", [cv_items(name, email, phrase, school=school)])


OTHERS = [
    ("Maribel Ostrander", "maribel.ostrander@example.net", "Led the migration of payroll batch jobs to Airflow"),
    ("Tobiah Lindqvist", "tobiah.lindqvist@example.com", "Built streaming dashboards for fleet telemetry data"),
]


def write_corpus(folder: Path) -> list[Path]:
    """The target CV plus two others."""
    paths = [write_cv(folder, "cv_target")]
    for i, (n, e, p) in enumerate(OTHERS):
        paths.append(write_cv(folder, f"cv_other_{i}", n, e, p, school=("Universidad de Granada", "KTH Stockholm")[i]))
    return paths
