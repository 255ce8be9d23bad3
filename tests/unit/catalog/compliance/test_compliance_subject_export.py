"""Subject-access export on real CVs: every record a grep of the data home finds for the person is in it."""

from __future__ import annotations

import hashlib
import json
import shutil
import zipfile

import pytest

from cvrag_desktop.app.assembly import App
from cvrag_desktop.cli.entry import main
from tests.conftest import REAL_CVS
from tests.support.home_grep import grep_data_home

THREAD_TABLES = ("checkpoints", "writes", "checkpoint_blobs", "checkpoint_writes", "assistant_threads")


def labelled(n: int) -> list[dict]:
    """The first ``n`` text-bearing labelled real CVs with a name and an e-mail (labels read at run time)."""
    labels = json.loads((REAL_CVS / "labels.json").read_text(encoding="utf-8"))
    found = [r for r in labels if r["name"] and r["emails"] and r["layout"] != "image-only"
             and (REAL_CVS / "pdf" / r["file"]).is_file()]
    return found[:n]


def build_library(tmp_path) -> tuple[App, dict, str]:
    """Ingest three real CVs; screen, shortlist, match, chat about and reveal the first person whose name reads."""
    if not (REAL_CVS / "labels.json").is_file():
        pytest.skip("the labelled real CVs are not here")
    chosen = labelled(3)
    folder = tmp_path / "in"
    folder.mkdir()
    for r in chosen:
        shutil.copy(REAL_CVS / "pdf" / r["file"], folder / r["file"])
    svc = App()
    report = svc.library.ingest([folder], use_llm=False, workers=1)
    assert report.ingested == len(chosen), report.failed
    people = svc.people.list_people()
    target = label = None
    for r in chosen:
        for p in people:
            if (p["name"] or "").casefold() == r["name"].casefold() and \
                    {e.casefold() for e in p["emails"]} & {e.casefold() for e in r["emails"]}:
                target, label = p, r
                break
        if target:
            break
    assert target is not None, "no labelled person was read with its name and e-mail"
    pid = target["id"]
    name = label["name"]  # notes naming them: the grep must find those rows, and the export hold them
    svc.screening.set_screening([pid], status="interview", rating=4, add_tags=["strong"], note=f"Call {name} on Monday")
    sl = svc.shortlists.create("Round one")
    svc.shortlists.add(sl.shortlist_id, [pid], note=f"{name} asked for remote work")
    result = svc.assistant.match_jd("Software engineer. Must have: Python. Nice to have: Docker.", use_llm=False)
    svc.jobs.save_match(result, "Software engineer. Must have: Python. Nice to have: Docker.")
    svc.assistant.ask(f"What did {label['name']} do?", use_llm=False)
    svc.assistant.ask("Who knows Python?", use_llm=False)
    svc.blind.reveal_candidate(pid, reason="interview planning")
    svc.catalog.backup_now("test")  # a backup holds the person too: its rows must be in the export as well
    return svc, label, pid


def export_index(data: dict) -> dict:
    """The keys of every record the export holds, by kind."""
    docs = data["documents"]
    return {
        "docs": {d["candidate_id"] for d in docs},
        "chunks": {c["chunk_id"] for d in docs for c in d["chunks"]},
        "provenance": {(p["candidate_id"], p["field"], p["value"]) for d in docs for p in d["provenance"]},
        "files": {d["file"]["sha256"] for d in docs if d["file"]},
        "screening": {(s["candidate_id"], s["note"]) for d in docs for s in d["screening"]},
        "shortlists": {(s["shortlist_id"], d["candidate_id"], s["note"]) for d in docs for s in d["shortlists"]},
        "job_rows": {(m["match_id"], d["candidate_id"]) for d in docs for m in d["job_matches"]},
        "evidence": {(m["match_id"], e["evidence_id"]) for d in docs for m in d["job_matches"] for e in m["evidence"]},
        "reveals": {r["reveal_id"] for d in docs for r in d["identity_reveals"]},
        "threads": {t["thread_id"] for t in data["chat_threads"]},
    }


def in_export(table: str, row: dict, idx: dict) -> bool:
    """Whether a row that names the person is one the export holds (same keys)."""
    checks = {
        "candidates": lambda: row["candidate_id"] in idx["docs"],
        "chunks": lambda: row["chunk_id"] in idx["chunks"],
        "provenance": lambda: (row["candidate_id"], row["field"], row["value"]) in idx["provenance"],
        "files": lambda: row["sha256"] in idx["files"],
        "screening": lambda: (row["candidate_id"], row["note"]) in idx["screening"],
        "shortlist_items": lambda: (row["shortlist_id"], row["candidate_id"], row["note"]) in idx["shortlists"],
        "job_match_rows": lambda: (row["match_id"], row["candidate_id"]) in idx["job_rows"],
        "job_match_evidence": lambda: (row["match_id"], row["evidence_id"]) in idx["evidence"],
        "identity_reveals": lambda: row["reveal_id"] in idx["reveals"],
    }
    if table in THREAD_TABLES:
        return row["thread_id"] in idx["threads"]
    assert table in checks, f"a table this test does not know names the person: {table}"
    return checks[table]()


def test_export_holds_every_record_a_grep_of_the_home_finds(tmp_path, _isolated_home):
    svc, label, pid = build_library(tmp_path)
    out = svc.compliance.export_subject(pid, tmp_path / "subject.zip")
    with zipfile.ZipFile(out["path"]) as z:
        data = json.loads(z.read("subject.json"))
        summary = z.read("summary.html").decode("utf-8")
        originals = {n: hashlib.sha256(z.read(n)).hexdigest() for n in z.namelist() if n.startswith("originals/")}
    idx = export_index(data)
    found = grep_data_home(svc.paths.data_dir, [label["name"], *label["emails"]])
    assert found["rows"], "the grep found nothing: the test would prove nothing"
    missing = [(f, t) for f, t, r in found["rows"] if not in_export(t, r, idx)]
    assert missing == [], f"records naming the person that the export lacks: {missing}"
    points = data["search_index_points"]
    for f in found["files"]:  # a non-SQLite file naming them: their library copy, or the index's derived copy
        if f.startswith("index/"):  # (payloads of their chunks; the WAL bytes cannot be split into records)
            assert points and {p["chunk_id"] for p in points} <= idx["chunks"], f
        else:
            assert f.startswith("library/") and f.split("/")[1].split(".")[0] in idx["files"], f
    assert set(originals.values()) == idx["files"]  # the original documents themselves, byte for byte
    kinds = {t for _f, t, _r in found["rows"]}
    assert {"candidates", "chunks", "provenance", "screening", "shortlist_items", "job_match_rows"} <= kinds, kinds
    assert kinds & set(THREAD_TABLES) and data["chat_threads"], "the chat about them is in the export"
    assert data["status_history"][-1]["to"] == "interview"
    assert {e["action"] for e in data["audit_entries"]} >= {"screening.status", "shortlist.add", "job_match.run",
                                                           "blind.reveal"}
    assert "Round one" in summary and "interview" in summary
    assert svc.compliance.audit_entries(action="export.subject", person=pid)
    counts: dict = {}
    for f, t, _r in found["rows"]:
        counts[f"{f}:{t}"] = counts.get(f"{f}:{t}", 0) + 1
    print(f"\nsubject export: grep found {len(found['rows'])} rows naming the person, all in the export: "
          f"{dict(sorted(counts.items()))}; other files: {sorted(found['files'])}")
    others = [p for p in svc.people.list_people() if p["id"] != pid]
    assert all(o["id"] not in idx["docs"] for o in others)  # nobody else's documents
    svc.close()


def test_cli_export_subject(tmp_path, capsys):
    svc = App()
    from tests.support.people_docs import BEN, add_document

    add_document(svc.catalog, "b1", BEN, svc.paths.data_dir / "library")
    svc.close()
    assert main(["people", "export-subject", "b1"]) == 2
    assert "needs --out" in capsys.readouterr().err
    assert main(["people", "export-subject", "b1", "--out", str(tmp_path / "ben")]) == 0
    assert "1 document(s), 1 original(s)" in capsys.readouterr().out
    with zipfile.ZipFile(tmp_path / "ben.zip") as z:
        assert {"subject.json", "summary.html"} <= set(z.namelist())
    assert main(["people", "export-subject", "nobody", "--out", str(tmp_path / "x.zip")]) == 2


def test_a_person_with_two_documents_exports_both(tmp_path):
    from tests.support.people_docs import ANA_NEW, ANA_OLD, add_document

    svc = App()
    lib = svc.paths.data_dir / "library"
    add_document(svc.catalog, "a1", ANA_OLD, lib)
    add_document(svc.catalog, "a2", ANA_NEW, lib)
    svc.screening.set_screening(["a1"], status="screening")
    svc.screening.set_screening(["a2"], status="offer")
    svc.compliance.set_consent("a2", "2099-12-31")
    out = svc.compliance.export_subject("a1", tmp_path / "ana.zip")
    assert out["documents"] == 2 and out["originals"] == 2
    with zipfile.ZipFile(out["path"]) as z:
        data = json.loads(z.read("subject.json"))
    assert [d["candidate_id"] for d in data["documents"]] == ["a2", "a1"]  # newest first, the person's id first
    assert [h["to"] for h in data["status_history"]] == ["screening", "offer"]
    assert all(d["retention_consent"][0]["until"] == "2099-12-31" for d in data["documents"])
    assert {d["screening"][0]["status"] for d in data["documents"]} == {"offer"}
    svc.close()
