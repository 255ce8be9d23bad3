"""Generated (demo) CVs are marked: found by the factory's manifest at import, tagged, badged in the
table, and left out of an export that mixes them with real candidates unless asked for."""

from __future__ import annotations

import csv
import json
from types import SimpleNamespace

from cvrag_desktop.ingestion.pipeline import FileOutcome
from cvrag_desktop.ui.demo import DEMO_TAG, generated_files
from cvrag_desktop.ui.models.candidates import NAME_COL
from cvrag_desktop.ui.panes.import_pane import mark_generated


def _factory_folder(tmp_path, names):
    folder = tmp_path / "generated"
    folder.mkdir()
    (folder / "manifest.json").write_text(json.dumps(
        {"generator": "cvrag-desktop factory", "cvs": [{"cv_id": n, "pdf": f"{n}.pdf"} for n in names]}))
    for n in names:
        (folder / f"{n}.pdf").write_bytes(b"%PDF-1.4")
    return folder


def test_generated_files_come_from_the_factory_manifest(tmp_path):
    folder = _factory_folder(tmp_path, ["b1", "c1"])
    assert generated_files([tmp_path]) == {str(folder / "b1.pdf"), str(folder / "c1.pdf")}
    assert generated_files([folder / "b1.pdf"]) == {str(folder / "b1.pdf"), str(folder / "c1.pdf")}
    other = tmp_path / "other"
    other.mkdir()
    (other / "manifest.json").write_text(json.dumps({"generator": "someone else", "cvs": [{"pdf": "x.pdf"}]}))
    assert generated_files([other]) == set()


def test_demo_cvs_are_tagged_badged_and_kept_out_of_mixed_exports(people_window, qtbot, tmp_path):
    pane = people_window.candidates
    svc = people_window.services
    folder = _factory_folder(tmp_path, ["b1"])
    report = SimpleNamespace(files=[FileOutcome(path=str(folder / "b1.pdf"), status="done", candidate_id="b1"),
                                    FileOutcome(path="/cvs/a2.pdf", status="done", candidate_id="a2")])
    assert mark_generated(svc, [folder], report) == 1
    with qtbot.waitSignal(pane.loaded, timeout=30_000):
        pane.reload()
    names = {pane.proxy.data(pane.proxy.index(r, 0), pane.model.IdRole): pane.proxy.data(pane.proxy.index(r, NAME_COL))
             for r in range(pane.proxy.rowCount())}
    assert names["b1"] == "Ben Okafor · demo" and not names["a2"].endswith("demo")
    assert "not a real person" in pane.proxy.data(pane.proxy.index(
        next(r for r in range(pane.proxy.rowCount()) if pane.proxy.data(pane.proxy.index(r, 0), pane.model.IdRole)
             == "b1"), NAME_COL), 3)
    out = tmp_path / "mixed.csv"
    with qtbot.waitSignal(pane.exported, timeout=10_000) as blocker:
        pane.export_view(out)
    assert blocker.args[1] == 2 and "1 demo CV(s) left out" in pane.message.text()
    with open(out, encoding="utf-8-sig", newline="") as fh:
        assert "Ben Okafor" not in fh.read()
    pane.facets.tag.setCurrentIndex(pane.facets.tag.findData(DEMO_TAG))
    assert pane.proxy.visible_ids() == ["b1"]
    only = tmp_path / "demo.csv"
    with qtbot.waitSignal(pane.exported, timeout=10_000) as blocker:
        pane.export_view(only)
    with open(only, encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.reader(fh))
    assert blocker.args[1] == 1 and rows[1][0] == "Ben Okafor" and DEMO_TAG in rows[1][3]
