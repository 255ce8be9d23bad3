"""Candidates pane: facets, text search, provenance → PDF page, shortlists with notes, CSV export, forget."""

from __future__ import annotations

import csv

import pytest

from cvrag_desktop.domain import NormalizedCV, Provenance
from cvrag_desktop.ui.models.candidates import degree_level, highest_degree
from cvrag_desktop.ui.shell.main_window import CANDIDATES


@pytest.fixture
def loaded(window, qtbot, generated_cvs):
    """A window with 100 generated candidates imported and shown."""
    with qtbot.waitSignal(window.importer.batch_finished, timeout=300_000):
        window.importer.import_paths([generated_cvs])
    n = len(window.services.people.list_people())
    qtbot.waitUntil(lambda: window.candidates.model.rowCount() == n, timeout=30_000)
    window.show_pane(CANDIDATES)
    return window


def _visible_rows(pane) -> list[dict]:
    return [pane.model.row(i) for i in pane.proxy.visible_ids()]


def test_facets_filter_the_table(loaded, qtbot):
    pane = loaded.candidates
    total = pane.model.rowCount()
    rows = pane.model.rows()
    skill = max({s for r in rows for s in r["skills"]}, key=lambda s: sum(s in r["skills"] for r in rows))
    expected = sum(skill in r["skills"] for r in rows)
    assert pane.facets.set_skill_checked(skill)
    assert pane.proxy.rowCount() == expected < total
    item_text = next(pane.facets.skills.item(i).text() for i in range(pane.facets.skills.count())
                     if pane.facets.skills.item(i).data(256) == skill)
    assert item_text == f"{skill} ({expected})"
    pane.facets.min_years.setValue(5)
    assert all(r["years_of_experience"] >= 5 and skill in r["skills"] for r in _visible_rows(pane))
    pane.facets.reset()
    pane.facets.degree.setCurrentIndex(2)  # Master or higher
    assert all(r["degree_level"] >= 3 for r in _visible_rows(pane))
    pane.facets.reset()
    employer = rows[0]["companies"][0]
    pane.facets.employer.setText(employer.lower())
    assert pane.proxy.rowCount() >= 1
    assert all(any(employer.lower() in c.lower() for c in r["companies"]) for r in _visible_rows(pane))
    pane.facets.reset()
    assert pane.proxy.rowCount() == total


def test_text_search_without_hybrid_search(loaded, qtbot):
    pane = loaded.candidates
    name = pane.model.rows()[3]["name"]
    assert "plain text filter" in pane.search.toolTip() or "ordered by relevance" in pane.search.toolTip()
    with qtbot.waitSignal(pane.search_done, timeout=30_000):
        pane.search.setText(name)
    assert name in [r["name"] for r in _visible_rows(pane)]
    with qtbot.waitSignal(pane.search_done, timeout=30_000):
        pane.search.setText("")
    assert pane.proxy.rowCount() == pane.model.rowCount()


def test_detail_provenance_opens_pdf_at_page(loaded, qtbot):
    pane = loaded.candidates
    with qtbot.waitSignal(pane.preview.rendered, timeout=30_000):
        assert pane.select_candidate(pane.model.rows()[0]["id"])
    rec = pane.detail.record
    assert rec is not None and "prov:" in pane.detail.toHtml()
    prov = rec["provenance"]
    i = max(range(len(prov)), key=lambda k: (prov[k]["page"] or 0, bool(prov[k]["bbox"])))
    with qtbot.waitSignal(pane.preview.rendered, timeout=30_000) as blocker:
        pane.detail.open_provenance(i)
    assert blocker.args[0] == prov[i]["page"]
    assert pane.preview.bbox == tuple(prov[i]["bbox"])
    img = pane.preview.image
    r = pane.preview.highlight_rect.center()
    color = img.pixelColor(int(r.x()), int(r.y()))
    assert color.blue() < color.red()  # yellow tint painted over the cited line


def test_shortlist_notes_and_export(loaded, qtbot, tmp_path):
    pane = loaded.candidates
    bar = pane.shortlists
    bar.create("Backend — Q4")
    qtbot.waitUntil(lambda: bar.current_name() == "Backend — Q4", timeout=10_000)
    sid = bar.current_id()
    assert sid is not None and bar.current_name() == "Backend — Q4"
    ids = [r["id"] for r in pane.model.rows()[:3]]
    with qtbot.waitSignal(bar.loaded, timeout=10_000):
        bar.add(ids)
    with qtbot.waitSignal(pane.preview.rendered, timeout=30_000):
        pane.select_candidate(ids[1])
    qtbot.waitUntil(lambda: bar.note.isEnabled(), timeout=10_000)
    bar.note.setText("=HYPERLINK(\"http://evil\") strong Kafka")
    with qtbot.waitSignal(bar.loaded, timeout=10_000):
        bar.save_note()
    bar.only.setChecked(True)
    qtbot.waitUntil(lambda: pane.proxy.rowCount() == 3, timeout=10_000)
    out = tmp_path / "shortlist.csv"
    with qtbot.waitSignal(pane.exported, timeout=10_000):
        pane.export_view(out)
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    with open(out, encoding="utf-8-sig", newline="") as fh:
        table = list(csv.reader(fh))
    header, rows = table[0], table[1:]
    assert header[:2] == ["Name", "Note"] and len(rows) == 3
    by_id = {r[header.index("Candidate id")]: r for r in rows}
    assert set(by_id) == set(ids)
    assert by_id[ids[1]][1].startswith("'=HYPERLINK")
    # remove one, view all again, export the filtered view (no Note column)
    with qtbot.waitSignal(bar.loaded, timeout=10_000):
        bar.remove([ids[0]])
    qtbot.waitUntil(lambda: pane.proxy.rowCount() == 2, timeout=10_000)
    bar.only.setChecked(False)
    pane.facets.min_years.setValue(3)
    view = tmp_path / "view.csv"
    with qtbot.waitSignal(pane.exported, timeout=10_000) as blocker:
        pane.export_view(view)
    assert blocker.args[1] == pane.proxy.rowCount()
    with open(view, encoding="utf-8-sig", newline="") as fh:
        table = list(csv.reader(fh))
    assert "Note" not in table[0] and len(table) - 1 == pane.proxy.rowCount()
    # persisted: a fresh store sees the list and the note
    from cvrag_desktop.catalog.shortlists import ShortlistStore

    store = ShortlistStore(loaded.services.catalog)
    assert store.notes(sid) == {ids[1]: "=HYPERLINK(\"http://evil\") strong Kafka", ids[2]: ""}


def test_forget_with_confirmation(loaded, qtbot, monkeypatch):
    pane = loaded.candidates
    victim = pane.model.rows()[0]["id"]
    n = pane.model.rowCount()
    pane.select_candidate(victim)
    monkeypatch.setattr(pane, "confirm", lambda title, text: False)
    pane.forget_selected()
    assert loaded.services.catalog.candidate(victim) is not None
    monkeypatch.setattr(pane, "confirm", lambda title, text: True)
    pane.forget_selected()
    qtbot.waitUntil(lambda: pane.model.rowCount() == n - 1, timeout=30_000)
    assert loaded.services.catalog.candidate(victim) is None


def test_degree_levels():
    assert degree_level("PhD in Computer Science") == 4
    assert degree_level("Máster en Ingeniería") == 3
    assert degree_level("MSc Data Science") == 3
    assert degree_level("Bachelor of Arts") == 2
    assert degree_level("Grado en Derecho") == 2
    assert degree_level("Certificate") == 1
    assert highest_degree(["BSc Physics", "PhD Physics"]) == (4, "PhD Physics")


def test_detail_html_escapes_cv_text():
    from cvrag_desktop.ui.widgets.detail import record_html

    cv = NormalizedCV(name="<script>x</script>", skills=["C++"],
                      provenance=[Provenance(field="skills", value="C++", page=0, bbox=(1, 2, 3, 4))])
    html = record_html({"id": "x", **cv.model_dump()})
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert 'href="prov:0"' in html


def test_detail_says_where_the_cvs_date_comes_from():
    from cvrag_desktop.ui.widgets.detail import record_html

    rec = {"name": "Dana Okonkwo", "years_of_experience": 1.4, "cv_date": "2015-06", "cv_date_source": "file"}
    assert "to the CV's own date from the file, 2015-06" in record_html(rec)
    rec["cv_date_source"] = "printed"
    assert "to the CV's own date, 2015-06" in record_html(rec)
