"""``cvrag ask`` / ``cvrag match`` JSON shapes."""

from __future__ import annotations

import argparse
import json

from cvrag_desktop.app.assembly import App
from cvrag_desktop.cli import assistant as cli_assistant
from cvrag_desktop.config import Settings, app_paths
from tests.unit.assistant import conftest as assistant_people

# fixtures: the assistant tests' people, catalog, index and assistant
catalog, search, assistant = assistant_people.catalog, assistant_people.search, assistant_people.assistant

def _app(catalog, search=None, settings: Settings | None = None) -> App:
    """The application over the test's open catalog and index (the CLI is handed an App, as in ``main``)."""
    return App(app_paths(), settings or Settings(llm_base_url="http://127.0.0.1:9"), catalog=catalog, index=search)


def _run(argv, svc, capsys):
    p = argparse.ArgumentParser()
    cli_assistant.register(p.add_subparsers())
    args = p.parse_args(argv)
    assert args.func(args, svc) == 0
    return capsys.readouterr().out


def test_ask_and_match_json(catalog, search, capsys, tmp_path):
    svc = _app(catalog, search)
    out = json.loads(_run(["ask", "Who speaks German?", "--json", "--no-llm"], svc, capsys))
    assert set(out) >= {"status", "answer", "route", "filters", "citations"}
    assert out["filters"] == {"languages": ["German"]}
    assert set(out["citations"][0]) == {"evidence_id", "candidate_id", "candidate_name", "source_path", "page",
                                        "section", "quote"}
    jd = tmp_path / "jd.txt"
    jd.write_text("Requirements: Python, Kafka. Fluent German.", encoding="utf-8")
    out = json.loads(_run(["match", "--jd", str(jd), "--json", "--no-llm"], svc, capsys))
    assert out["candidates"][0]["candidate_id"] == "cand_ana"
    assert {"requirement", "kind", "must", "status", "evidence_id"} <= set(out["candidates"][0]["cells"][0])


def test_a_closed_pipe_ends_quietly(monkeypatch, capsys):
    """`cvrag … | head`: the reader leaves early; the command ends with no traceback."""
    import sys

    from cvrag_desktop.cli import entry as cli

    class ClosedPipe:
        def write(self, _text):
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self):
            pass

        def fileno(self):
            return sys.__stdout__.fileno()

    monkeypatch.setattr(cli_assistant, "cmd_ask", lambda args, svc: print("x" * 10, file=ClosedPipe()) or 0)
    monkeypatch.setattr(sys.stdout, "fileno", lambda: ClosedPipe().fileno(), raising=False)
    dup = []
    monkeypatch.setattr("os.dup2", lambda a, b: dup.append((a, b)))
    assert cli.main(["ask", "Who speaks German?", "--no-llm"]) == 0
    assert dup  # stdout pointed at the null device so the interpreter's final flush cannot fail


def test_long_questions_are_cut_at_a_word(assistant):
    r = assistant.ask("kafka " * 1000, use_llm=False)
    assert len(r["standalone"]) <= 2000 and r["standalone"].split()[-1] == "kafka"


def test_match_and_a_saved_match_export_their_matrix(catalog, search, capsys, tmp_path):
    """`cvrag match --csv` writes the matrix; `cvrag matches --open ID --csv --blind` a saved one, pseudonymous."""
    import csv

    from cvrag_desktop.catalog.privacy.blind import pseudonym

    svc = _app(catalog, search)
    jd = tmp_path / "jd.txt"
    jd.write_text("Requirements: Python, Kafka. Fluent German.", encoding="utf-8")
    live = tmp_path / "live.csv"
    result = json.loads(_run(["match", "--jd", str(jd), "--json", "--no-llm", "--csv", str(live)], svc, capsys))
    with open(live, encoding="utf-8-sig", newline="") as fh:
        table = list(csv.reader(fh))
    assert table[0][:4] == ["Rank", "Candidate", "Score", "Met"]
    assert [r[1] for r in table[1:]] == [c["name"] for c in result["candidates"]]
    saved = _app(catalog)
    saved.jobs.open_match = lambda mid: {"match_id": mid, "jd_text": jd.read_text(), "result": result}
    blind = tmp_path / "blind.csv"
    _run(["matches", "--open", "3", "--csv", str(blind), "--blind"], saved, capsys)
    with open(blind, encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.reader(fh))[1:]
    assert [r[1] for r in rows] == [pseudonym(c.get("person_id") or c["candidate_id"]) for c in result["candidates"]]
    assert not {c["name"] for c in result["candidates"]} & {r[1] for r in rows}
