"""Diagnostics for support (``cvrag diagnostics``, Help ▸ Export diagnostics) carry no CV text,
and ``cvrag doctor`` says what was found and what to do, in plain words."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from cvrag_desktop.app.assembly import App
from cvrag_desktop.cli.entry import main
from cvrag_desktop.diagnostics import export_diagnostics, first_run_report, llm_advice, scrub


def test_scrub_removes_contacts_and_file_names_but_keeps_timestamps():
    line = ("2026-12-01 06:49:30,123 INFO import: /home/r/CVs/Jane_Roe_CV.pdf failed; jane.roe@example.org "
            "+34 612 345 678 (612345678) took 1.5 s")
    out = scrub(line)
    assert "2026-12-01 06:49:30,123" in out and "1.5 s" in out
    assert "Jane_Roe" not in out and "jane.roe" not in out and "612" not in out
    assert "<file>.pdf" in out and "<email>" in out and "<phone>" in out


def test_export_has_versions_settings_doctor_and_logs_without_cv_text(tmp_path):
    svc = App()
    try:
        svc.library.generate(1, 3, tmp_path / "cvs", use_llm=False)
        assert svc.library.ingest([tmp_path / "cvs"], use_llm=False, workers=1).ingested == 1
        row = svc.people.list_candidates()[0]
        svc.paths.log_dir.mkdir(parents=True, exist_ok=True)
        (svc.paths.log_dir / "cvrag-desktop.log").write_text(
            f"2026-12-01 07:00:00 INFO imported {row['source_path']} for {row['emails'][0]}\n", encoding="utf-8")
        out = export_diagnostics(svc, tmp_path / "diag")
    finally:
        svc.close()
    assert out.suffix == ".zip"
    with zipfile.ZipFile(out) as zf:
        names = set(zf.namelist())
        assert {"README.txt", "versions.json", "settings.json", "doctor.json", "logs/00-cvrag-desktop.log"} <= names
        text = "\n".join(zf.read(n).decode("utf-8") for n in names)
        versions = json.loads(zf.read("versions.json"))
    assert versions["distributions"]["pymupdf"] and "python" in versions
    assert row["emails"][0] not in text and row["name"] not in text
    assert Path(row["source_path"]).stem not in text
    assert not any(phone in text for phone in row["phones"])


def test_doctor_reports_models_ocr_llm_advice_and_where_data_lives(capsys):
    assert main(["doctor", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["models"]["ok"] and info["models"]["dense_onnx_source"]
    assert info["llm"]["reachable"] is False and "deterministic mode" in info["llm_advice"]
    assert info["data_dir"] in info["where"]
    assert main(["doctor"]) == 0
    assert "llm_advice" in capsys.readouterr().out


def test_llm_advice_names_the_missing_models():
    svc = App()
    try:
        report = first_run_report(svc)
        assert report["ocr_engine"] == "rapidocr"
        health = {"base_url": "http://127.0.0.1:11434", "reachable": True,
                  "aliases": {"cvrag-default": True, "cvrag-quality": False},
                  "alias_models": {"cvrag-quality": "qwen2.5:7b-instruct"}}
        advice = llm_advice(health, svc.settings)
    finally:
        svc.close()
    assert "qwen2.5:7b-instruct" in advice and "ollama pull" in advice
