"""The zoo build on the factory's own families (no external tool): cache, manifest, skipped engines."""

from __future__ import annotations

import json
from pathlib import Path

from cvrag_desktop.evaluation.zoo import build
from cvrag_desktop.evaluation.zoo.families import select

REPO = Path(__file__).resolve().parents[4]


def test_a_build_writes_truth_pdf_roles_and_a_manifest_then_reuses_them(tmp_path):
    fams = select("fx-classic,fx-timeline")
    first = build.build_zoo(tmp_path, 9, 2, fams, install=False, log=lambda _m: None)
    assert first["documents"] == 4
    entry = {e["name"]: e for e in first["families"]}
    assert entry["fx-classic"]["built"] == 2 and not entry["fx-classic"]["failed"]
    assert entry["fx-timeline"]["held_out"] is True
    assert first["held_out"] and first["size_bytes"] > 0
    doc = tmp_path / "docs" / "fx-classic" / "fx-classic-s9-0001"
    truth = json.loads(doc.with_suffix(".json").read_text(encoding="utf-8"))
    assert truth["zoo"]["family"] == "fx-classic" and truth["cv_id"] == doc.name
    rows = [json.loads(x) for x in (doc.parent / f"{doc.name}.roles.jsonl").read_text().splitlines()]
    assert any(r["role"] == "name" for r in rows)
    before = {p.name: p.read_bytes() for p in doc.parent.iterdir() if p.suffix in (".json", ".jsonl")}
    again = build.build_zoo(tmp_path, 9, 2, select("fx-classic"), install=False, log=lambda _m: None)
    entry = {e["name"]: e for e in again["families"]}
    assert (entry["fx-classic"]["built"], entry["fx-classic"]["cached"]) == (0, 2)
    assert entry["fx-timeline"]["documents"] == 2  # an earlier run's family stays in the manifest
    assert before == {p.name: p.read_bytes() for p in doc.parent.iterdir() if p.suffix in (".json", ".jsonl")}
    assert entry["fx-classic"]["value_recall"]["name"] == [2, 2]


def test_a_missing_tool_skips_its_engine_with_the_reason_and_fails_the_command(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(build, "tools_status", lambda: dict.fromkeys(("node", "npm", "chromium", "soffice")))
    code = build.main(["--out", str(tmp_path), "--families", "word-oneline,fx-classic", "--per-family", "1",
                       "--no-install"])
    assert code == 1
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert "soffice" in manifest["skipped_engines"]["word"]
    assert [e["name"] for e in manifest["families"]] == ["fx-classic"]
    assert "word-oneline: skipped" in capsys.readouterr().out


def test_bad_arguments_are_refused(tmp_path, capsys):
    assert build.main(["--out", str(tmp_path), "--per-family", "0"]) == 2
    assert build.main(["--out", str(tmp_path), "--families", "nothing-like-this"]) == 2
    assert "no family matches" in capsys.readouterr().err


def test_make_test_never_builds_the_zoo():
    text = (REPO / "Makefile").read_text(encoding="utf-8")
    recipe = text.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert "zoo" not in recipe
    assert "\nzoo:" in text and "\nzoo-tools:" in text


def test_a_change_of_the_engines_input_changes_the_cache_key():
    fam = select("word-oneline")[0]
    doc = build.plan_family(fam, 9, 1)[0]
    given = build.engine_input(fam, doc)
    assert given.startswith(b"PK")  # the DOCX itself
    assert given == build.engine_input(fam, doc)
    assert build._truth_bytes(doc, 9, given) == build._truth_bytes(doc, 9, given)
    assert build._truth_bytes(doc, 9, given) != build._truth_bytes(doc, 9, given + b" ")
    assert build.engine_input(select("fx-classic")[0], doc) == b""
