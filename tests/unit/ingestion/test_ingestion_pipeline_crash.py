"""A real kill -9 mid-import resumes cleanly; a garbage-speaking LLM never spoils a candidate."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time

from cvrag_desktop.app.assembly import App
from cvrag_desktop.factory.pipeline import generate_batch


def test_killed_import_resumes(tmp_path, _isolated_home):
    src = tmp_path / "cvs"
    generate_batch(40, 3, src, locale="en_US", layout="mixed")
    env = {**os.environ, "CVRAG_HOME": str(_isolated_home), "CVRAG_DISABLE_OCR": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "cvrag_desktop.cli", "ingest", str(src), "--no-llm",
                             "--workers", "1"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    db = _isolated_home / "data" / "catalog.sqlite3"
    deadline = time.time() + 60
    done = 0
    while time.time() < deadline and proc.poll() is None:
        if db.exists():
            try:
                with sqlite3.connect(db, timeout=1) as c:
                    done = c.execute("SELECT COUNT(*) FROM files WHERE status='done'").fetchone()[0]
            except sqlite3.Error:
                done = 0
            if done >= 3:
                break
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    svc = App()
    before = len(svc.people.list_candidates())
    assert 3 <= before < 40, "the kill should land mid-import"
    report = svc.library.ingest([src], use_llm=False)
    assert report.ingested == 40 - before and report.duplicates == before
    assert len(svc.people.list_candidates()) == 40
    assert not svc.library.files("processing") and not svc.library.files("queued")
    svc.close()


def _cv_pdf(tmp_path):
    from tests.unit.ingestion.test_ingestion_pipeline import make_cv_pdf

    return make_cv_pdf(tmp_path / "jane.pdf")


def test_llm_garbage_keeps_deterministic_record(tmp_path, ollama_stub, monkeypatch):
    monkeypatch.setenv("CVRAG_LLM_URL", ollama_stub.url)
    ollama_stub.mode = "garbage"
    svc = App()
    report = svc.library.ingest([_cv_pdf(tmp_path)], use_llm=True)
    assert report.ingested == 1
    row = svc.people.list_candidates()[0]
    assert row["name"] == "Jane Roe" and row["current_company"] == "Acme Corp"
    svc.close()


def test_llm_fills_a_gap_but_cannot_invent(tmp_path, ollama_stub, monkeypatch):
    import json

    monkeypatch.setenv("CVRAG_LLM_URL", ollama_stub.url)
    ollama_stub.responder = lambda req: json.dumps({
        "name": "Jane Roe", "headline": None, "current_title": None, "current_company": None,
        "location": "Madrid", "emails": [], "phones": [], "skills": ["Kafka", "COBOL"],
        "languages": ["Klingon"], "certifications": [], "experiences": [], "education": [],
    })
    svc = App()
    assert svc.library.ingest([_cv_pdf(tmp_path)], use_llm=True).ingested == 1
    rec = svc.people.get_candidate(svc.people.list_candidates()[0]["id"])
    assert "COBOL" not in rec["skills"] and "Klingon" not in rec["languages"]
    assert ollama_stub.chat_requests, "the LLM pass was attempted"
    assert rec["location"] == "Madrid"  # a gap filled with a value the CV really states
    svc.close()
