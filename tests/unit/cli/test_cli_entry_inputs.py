"""Small inputs the CLI refuses or explains instead of acting on quietly (issue 35's small items)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from cvrag_desktop.cli.entry import main
from cvrag_desktop.config import app_paths
from tests.support import hostile


@pytest.fixture()
def home_with_one(tmp_path, capsys):
    """A data home holding one invented candidate, imported through the CLI."""
    (tmp_path / "in").mkdir()
    pdf = hostile.good_cv_pdf(tmp_path / "in" / "jane.pdf")
    assert main(["ingest", str(pdf), "--no-llm"]) == 0
    capsys.readouterr()
    return tmp_path


def _run(capsys, *args) -> tuple[int, str, str]:
    code = main(list(args))
    got = capsys.readouterr()
    return code, got.out, got.err


@pytest.mark.parametrize("k", ["-5", "0", "100000"])
def test_search_refuses_a_count_of_hits_that_is_not_positive(capsys, home_with_one, k):
    code, out, err = _run(capsys, "search", "python", "--k", k)
    assert code == 2 and "number of hits" in err and out == ""


def test_search_still_takes_a_sane_count(capsys, home_with_one):
    code, out, err = _run(capsys, "search", "Jane", "--k", "1")
    assert code == 0 and err == "" and "Jane Roe" in out


@pytest.mark.parametrize("thread", ["../../x", "a/b", "", "x" * 65, "name\x1b[2J"])
def test_ask_refuses_a_thread_id_that_is_not_one(capsys, home_with_one, thread):
    code, out, err = _run(capsys, "ask", "Who is Jane?", "--no-llm", "--thread", thread)
    assert code == 2 and "conversation id" in err and out == ""
    assert not list(home_with_one.rglob("x"))


def test_ask_takes_a_chosen_thread_name_and_follows_it_up(capsys, home_with_one):
    assert _run(capsys, "ask", "Who is Jane?", "--no-llm", "--thread", "hiring-2026_q1")[0] == 0
    code, out, _ = _run(capsys, "ask", "What is her e-mail?", "--no-llm", "--thread", "hiring-2026_q1", "--json")
    assert code == 0 and json.loads(out)["thread_id"] == "hiring-2026_q1"


@pytest.mark.parametrize("name", ["shortlist", "shortlist.txt"])
def test_export_to_a_path_without_csv_is_refused_and_writes_nothing(capsys, home_with_one, tmp_path, name):
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    code, _out, err = _run(capsys, "export", str(out_dir / name))
    assert code == 2 and ".csv" in err
    assert list(out_dir.iterdir()) == [], "nothing written under another name"
    code, _out, _err = _run(capsys, "export", str(out_dir / "shortlist.csv"))
    assert code == 0 and (out_dir / "shortlist.csv").is_file()


def _mark_incomplete() -> None:
    """What an interrupted ``doctor --rebuild-catalog`` leaves: the catalog's rebuild marker."""
    conn = sqlite3.connect(app_paths().catalog_db)
    with conn:
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES('rebuild', ?)",
                     (json.dumps({"started_at": 0, "library_files": 3}),))
    conn.close()


def test_search_and_ask_warn_when_the_catalog_is_a_partial_rebuild(capsys, home_with_one):
    assert _run(capsys, "search", "Jane")[2] == ""
    _mark_incomplete()
    code, out, err = _run(capsys, "search", "Jane")
    assert code == 0 and "INCOMPLETE" in err and "Jane Roe" in out
    code, out, err = _run(capsys, "ask", "Who knows Python?", "--no-llm")
    assert code == 0 and "INCOMPLETE" in err
    code, out, err = _run(capsys, "ask", "Who knows Python?", "--no-llm", "--json")
    assert code == 0 and "INCOMPLETE" in json.loads(out)["warnings"][0]


def test_a_folder_holding_only_a_folder_link_says_why_nothing_was_imported(capsys, tmp_path):
    target = tmp_path / "elsewhere"
    target.mkdir()
    hostile.good_cv_pdf(target / "cv.pdf")
    chosen = tmp_path / "chosen"
    chosen.mkdir()
    (chosen / "sub").symlink_to(target, target_is_directory=True)
    code, out, _ = _run(capsys, "ingest", str(chosen), "--no-llm")
    assert code == 0 and "skipped 1" in out and "links to folders are not followed" in out
