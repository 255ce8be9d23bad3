"""The CLI's JSON output keeps stable field names (scripts depend on them)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from cvrag_desktop.cli.entry import main


def run_json(capsys, *args) -> object:
    code = main([*args, "--json"])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


def test_ingest_list_show_delete(capsys, real_cvs_dir, tmp_path):
    pdf = real_cvs_dir / "pdf" / "resumematcher_john_smith_word2016.pdf"
    res = run_json(capsys, "ingest", str(pdf), "--no-llm")
    assert set(res) == {"ingested", "duplicates", "failed", "skipped", "seconds"} and res["ingested"] == 1
    rows = run_json(capsys, "candidates", "list")
    assert len(rows) == 1
    row = rows[0]
    for key in ("id", "name", "emails", "phones", "current_title", "current_company", "years_of_experience",
                "skills", "degrees", "institutions", "companies", "languages", "source_path"):
        assert key in row
    assert row["name"] == "John Smith" and row["source_path"].endswith("word2016.pdf")
    rec = run_json(capsys, "candidates", "show", row["id"])
    assert rec["name"] == "John Smith" and rec["provenance"] and rec["chunks"]
    run_json(capsys, "candidates", "delete", row["id"])
    assert run_json(capsys, "candidates", "list") == []


def test_ingest_reports_skipped_files_in_text_and_json(capsys, real_cvs_dir, tmp_path):
    folder = tmp_path / "inbox"
    folder.mkdir()
    pdf = (real_cvs_dir / "pdf" / "resumematcher_john_smith_word2016.pdf").read_bytes()
    (folder / "cv.pdf").write_bytes(pdf)
    (folder / ".hidden.pdf").write_bytes(pdf)
    (folder / "~$cv.docx").write_bytes(b"lock")
    res = run_json(capsys, "ingest", str(folder), "--no-llm")
    assert res["ingested"] == 1
    assert sorted(Path(s["path"]).name for s in res["skipped"]) == [".hidden.pdf", "~$cv.docx"]
    assert all(s["reason"] for s in res["skipped"])
    assert main(["ingest", str(folder), "--no-llm"]) == 0
    out = capsys.readouterr().out
    assert "skipped 2" in out and ".hidden.pdf" in out and "hidden file" in out


def test_errors_are_clear(capsys):
    assert main(["candidates", "show", "nope", "--json"]) == 2
    assert "No candidate" in capsys.readouterr().out
    assert main(["ingest", "/does/not/exist"]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_doctor_and_eval(capsys, real_cvs_dir):
    info = run_json(capsys, "doctor")
    assert info["llm"]["reachable"] is False and "data_dir" in info
    rep = run_json(capsys, "eval", "--dataset", str(real_cvs_dir))
    assert rep["rates"]["email"] >= 0.95


def test_console_script_runs():
    out = subprocess.run([sys.executable, "-m", "cvrag_desktop.cli", "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "ingest" in out.stdout
