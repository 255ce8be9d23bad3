"""``cvrag explain`` (a saved job-match row, a ranked-search row; text, --json, --export) and
``cvrag screen --status rejected --reason`` through the CLI's main function, on the invented
people of this folder's conftest. Errors are one clear line, never a traceback."""

from __future__ import annotations

import json

import pytest

from cvrag_desktop.app.assembly import App
from cvrag_desktop.cli.entry import main
from tests.unit.assistant.conftest import PEOPLE, add_person

JD = "Backend engineer\nRequirements: Python, Kafka, fluent English.\nNice to have: Go"


@pytest.fixture
def match_id(tmp_path):
    """The four people in the library and one saved job match; the session closed again (the CLI opens its own)."""
    svc = App()
    for p in PEOPLE:
        add_person(svc.catalog, p)
    svc.index.rebuild()
    result = svc.assistant.match_jd(JD, use_llm=False, limit=None)
    mid = svc.jobs.save_match(result, JD)["match_id"]
    svc.close()
    return mid


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_explain_a_saved_match_row_by_id_name_or_rank(match_id, capsys):
    code, out, _ = run(capsys, "explain", "match", str(match_id), "cand_ana")
    assert code == 0
    assert "Why this rank: Ana Núñez" in out and "Ranked 1 of 4 for Backend engineer" in out
    assert "✓ Python (must-have): met, 10 points" in out and "cand_ana.pdf, page 1" in out
    code, out, _ = run(capsys, "explain", "match", str(match_id), "ortiz", "--json")
    expl = json.loads(out)
    assert code == 0 and expl["name"] == "Ben Ortiz" and "Python" in expl["flags"]
    assert expl["rule"].startswith("Score = 10 points")
    code, out, _ = run(capsys, "explain", "match", str(match_id), "--rank", "1", "--json")
    assert json.loads(out)["candidate_id"] == "cand_ana"


def test_explain_a_ranked_search_row(match_id, capsys):
    code, out, _ = run(capsys, "explain", "search", "Kafka streaming pipelines", "cand_ana", "--json")
    expl = json.loads(out)
    assert code == 0 and expl["kind"] == "search" and expl["rank"] == 1
    assert {r["requirement"]: r["status"] for r in expl["requirements"]}["kafka"] == "met"
    code, out, _ = run(capsys, "explain", "search", "Kafka streaming pipelines", "--rank", "1")
    assert code == 0 and "Why this rank: Ana Núñez" in out and "reciprocal rank fusion" in out


@pytest.mark.parametrize("suffix", [".html", ".txt"])
def test_export_for_the_candidate_names_nobody_else(match_id, capsys, tmp_path, suffix):
    out_file = tmp_path / f"why{suffix}"
    code, out, _ = run(capsys, "explain", "match", str(match_id), "cand_ben", "--export", str(out_file))
    assert code == 0 and "candidate-facing" in out
    text = out_file.read_text(encoding="utf-8")
    assert "Ben Ortiz" in text and "cand_ben.pdf" in text  # their own name and file, nobody else's
    assert [s for p in PEOPLE if p["cid"] != "cand_ben" for s in (p["name"], p["cid"]) if s in text] == []
    code, out, _ = run(capsys, "audit", "list", "--action", "export.explanation", "--json")
    assert [e["details"]["format"] for e in json.loads(out)] == [suffix[1:]]


def test_explain_errors_are_clear(match_id, capsys):
    cases = [(["explain", "match", "999", "cand_ana"], "No saved job match"),
             (["explain", "match", "abc", "cand_ana"], "is a number"),
             (["explain", "match", str(match_id), "Nobody Here"], "not among"),
             (["explain", "match", str(match_id), "--rank", "9"], "--rank 1 to 4"),
             (["explain", "match", str(match_id)], "Say whose rank"),
             (["explain", "match", str(match_id), "cand_ana", "--export", "why.pdf"], ".html or .txt"),
             (["explain", "search", "Kafka", "no-such-person"], "No person")]
    for argv, message in cases:
        code, _, err = run(capsys, *argv)
        assert code == 2 and message in err and "Traceback" not in err, (argv, err)


def test_screen_rejected_with_a_reason(match_id, capsys):
    code, out, _ = run(capsys, "screen", "cand_ben", "--status", "rejected", "--reason", "requirements_not_met")
    assert code == 0 and "rejected" in out and "reason: Requirements not met" in out
    code, out, _ = run(capsys, "screen", "cand_cara", "--status", "rejected", "--reason", "Prefers Java only",
                       "--json")
    assert json.loads(out)["cand_cara"]["reason"] == "Prefers Java only"
    code, out, _ = run(capsys, "audit", "list", "--action", "screening.status", "--json")
    kinds = [e["details"].get("reason") for e in json.loads(out)]
    assert kinds == ["requirements_not_met", "other"] and "Java" not in out
    code, _, err = run(capsys, "screen", "cand_dan", "--reason", "no status given")
    assert code == 2 and "give the status too" in err
