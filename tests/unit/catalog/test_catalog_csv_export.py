"""CSV export: BOM, one row per candidate, formula injection neutralised."""

from __future__ import annotations

import csv

import pytest

from cvrag_desktop.catalog.csv_export import COLUMNS, export_candidates_csv, neutralise

ROWS = [
    {"id": "a1", "name": "José Núñez", "current_title": "=HYPERLINK(\"http://x\",\"click\")",
     "current_company": "+Acme", "years_of_experience": 7.5, "skills": ["Python", "-Kafka", "@SQL"],
     "degrees": ["MSc"], "companies": ["Acme"], "languages": ["Spanish", "English"], "emails": ["j@x.es"],
     "phones": ["+34 600 000 000"], "source_path": "/cvs/jose.pdf"},
    {"id": "b2", "name": "王伟", "current_title": "Engineer\nLead", "current_company": "\tTabCo",
     "years_of_experience": None, "skills": [], "degrees": [], "companies": [], "languages": []},
]


@pytest.mark.parametrize("raw, expected", [
    ("=1+1", "'=1+1"), ("+1", "'+1"), ("-2", "'-2"), ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"),
    ("\rx", "'\rx"), ("plain", "plain"), (None, ""), (3.0, "3"), (["a", "=b"], "a; =b"), (["=a"], "'=a"),
])
def test_neutralise(raw, expected):
    assert neutralise(raw) == expected


def test_export_file(tmp_path):
    out = tmp_path / "shortlist.csv"
    n = export_candidates_csv(ROWS, out, notes={"a1": "=cmd|' /C calc'!A0", "b2": "good"})
    assert n == 2
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    with open(out, encoding="utf-8-sig", newline="") as fh:
        table = list(csv.reader(fh))
    assert len(table) == 3
    header = table[0]
    assert header[0] == "Name" and header[1] == "Note" and len(header) == len(COLUMNS) + 1
    row = dict(zip(header, table[1], strict=True))
    assert row["Name"] == "José Núñez"
    assert row["Note"].startswith("'=")
    assert row["Current title"].startswith("'=HYPERLINK")
    assert row["Current company"] == "'+Acme"
    assert row["Skills"] == "Python; -Kafka; @SQL"  # only the start of a cell is dangerous
    assert row["Phones"] == "'+34 600 000 000"
    assert row["Years of experience"] == "7.5"
    row2 = dict(zip(header, table[2], strict=True))
    assert row2["Name"] == "王伟" and row2["Current title"] == "Engineer\nLead"
    assert row2["Current company"] == "'\tTabCo"
    assert not any(cell.startswith(("=", "+", "-", "@")) for r in table[1:] for cell in r)
    assert not list(tmp_path.glob("*.part"))


def test_export_without_notes_and_suffix(tmp_path):
    n = export_candidates_csv(ROWS[:1], tmp_path / "view")
    assert n == 1
    with open(tmp_path / "view.csv", encoding="utf-8-sig", newline="") as fh:
        header = next(csv.reader(fh))
    assert "Note" not in header
