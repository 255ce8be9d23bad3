"""CSV export: BOM, one row per candidate, formula injection neutralised."""

from __future__ import annotations

import csv
import os

import pytest

from cvrag_desktop.catalog.csv_export import COLUMNS, csv_target, export_candidates_csv, neutralise
from cvrag_desktop.errors import InvalidInput

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


def test_export_without_notes(tmp_path):
    n = export_candidates_csv(ROWS[:1], tmp_path / "view.CSV")
    assert n == 1
    with open(tmp_path / "view.CSV", encoding="utf-8-sig", newline="") as fh:
        header = next(csv.reader(fh))
    assert "Note" not in header


@pytest.mark.parametrize("name", ["view", "view.txt", "view.csv.bak"])
def test_a_path_not_ending_in_csv_is_refused_not_renamed(tmp_path, name):
    with pytest.raises(InvalidInput, match=r"\.csv"):
        export_candidates_csv(ROWS[:1], tmp_path / name)
    assert list(tmp_path.iterdir()) == []


def test_a_folder_or_a_device_is_refused(tmp_path):
    (tmp_path / "box.csv").mkdir()
    with pytest.raises(InvalidInput, match="not a regular file"):
        export_candidates_csv(ROWS[:1], tmp_path / "box.csv")
    with pytest.raises(InvalidInput, match="No folder"):
        csv_target(tmp_path / "missing" / "x.csv")
    os.mkfifo(tmp_path / "pipe.csv")  # a reader on a pipe would get half an export, or hang the writer
    with pytest.raises(InvalidInput, match="not a regular file"):
        csv_target(tmp_path / "pipe.csv")


def test_a_failed_write_leaves_no_part_file_and_no_target(tmp_path, monkeypatch):
    def full(*_a, **_k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("cvrag_desktop.catalog.csv_export.os.replace", full)
    with pytest.raises(OSError):
        export_candidates_csv(ROWS, tmp_path / "view.csv")
    assert list(tmp_path.iterdir()) == []
