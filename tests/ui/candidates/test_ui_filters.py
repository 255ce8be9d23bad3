"""Filters in the Candidates pane: a hidden selection leaves nothing on screen; facet counts
follow the other active filters."""

from __future__ import annotations

from tests.ui.conftest import deliver_posted_events


def _select(pane, qtbot, candidate_id: str) -> None:
    with qtbot.waitSignal(pane.preview.rendered, timeout=30_000):
        assert pane.select_candidate(candidate_id)
    qtbot.waitUntil(lambda: pane.detail.record is not None and pane.detail.record.get("id") == candidate_id,
                    timeout=30_000)


def _skill_text(pane, name: str) -> str:
    facets = pane.facets
    return next(facets.skills.item(i).text() for i in range(facets.skills.count())
                if facets.skills.item(i).data(256) == name)


def test_filtering_out_the_selection_clears_detail_preview_and_note(people_window, qtbot):
    pane = people_window.candidates
    bar = pane.shortlists
    bar.create("Pipeline")
    qtbot.waitUntil(lambda: bar.current_name() == "Pipeline", timeout=10_000)
    with qtbot.waitSignal(bar.loaded, timeout=10_000):
        bar.add(["b1"])
    _select(pane, qtbot, "b1")
    qtbot.waitUntil(lambda: bar.note.isEnabled(), timeout=10_000)
    assert "Ben Okafor" in pane.detail.toHtml() and pane.preview.path
    pane.facets.employer.setText("Contoso")  # only Ana (a2) worked there
    assert pane.proxy.visible_ids() == ["a2"]
    assert pane.current_id is None and pane.detail.record is None
    assert "Ben Okafor" not in pane.detail.toHtml()
    assert pane.preview.path is None and pane.preview.image is None
    assert not bar.note.isEnabled() and not bar.note.text()
    assert not pane.table.selectionModel().hasSelection()
    # a late detail load of the hidden person does not bring it back
    people_window.runner.wait(10_000)
    deliver_posted_events()
    assert pane.detail.record is None
    # a visible selection survives a filter change that keeps it
    pane.facets.reset()
    _select(pane, qtbot, "a2")
    pane.facets.employer.setText("Contoso")
    assert pane.current_id == "a2" and pane.detail.record["id"] == "a2"


def test_facet_counts_follow_the_other_filters(people_window, qtbot):
    pane = people_window.candidates
    # a2 (newest Ana): Python, Go · a3 (the nurse): Triage · b1: SQL
    assert _skill_text(pane, "Python") == "Python (1)" and _skill_text(pane, "SQL") == "SQL (1)"
    pane.facets.employer.setText("Fabrikam")  # Ben only
    assert _skill_text(pane, "SQL") == "SQL (1)"
    assert _skill_text(pane, "Python") == "Python (0)" and _skill_text(pane, "Triage") == "Triage (0)"
    pane.facets.employer.clear()
    assert pane.facets.set_skill_checked("Go")
    assert _skill_text(pane, "Python") == "Python (1)" and _skill_text(pane, "Go") == "Go (1)"
    assert _skill_text(pane, "SQL") == "SQL (0)"
    pane.facets.reset()
    assert _skill_text(pane, "Triage") == "Triage (1)"


def _choices(combo) -> list[str]:
    return [combo.itemText(i) for i in range(combo.count())]


def test_field_of_work_facet_reads_roles_as_the_chat_does(people_window, qtbot):
    pane = people_window.candidates
    fields = pane.facets.work_field
    # a2 is a lead developer, a3 a nurse at a hospital (nursing, and healthcare as a sector), Ben an analyst
    assert {"nursing (1)", "healthcare (1)", "software and IT (1)"} <= set(_choices(fields))
    fields.setCurrentIndex(fields.findData("nursing"))
    assert pane.proxy.visible_ids() == ["a3"]
    pane.facets.reset()
    assert len(pane.proxy.visible_ids()) == 3


def test_credential_facet_filters_on_the_short_name():
    from cvrag_desktop.ui.models.candidate_filter import CandidateFilterProxy

    proxy = CandidateFilterProxy()
    rn = {"id": "p1", "person_credentials": ["RN", "ACLS"], "_text": ""}
    cpa = {"id": "p2", "person_credentials": ["CPA"], "_text": ""}
    proxy.credential = "ACLS"
    assert proxy.passes(rn) and not proxy.passes(cpa)
    assert proxy.passes(cpa, frozenset({"credential"}))


def test_a_reload_refilters_only_when_a_choice_vanished(qtbot):
    """New rows keep the ticked skill: no second re-filter; the ticked skill gone: one, without it."""
    from PySide6.QtCore import Qt

    from cvrag_desktop.ui.widgets.facets import FacetPanel

    panel = FacetPanel()
    qtbot.addWidget(panel)
    emitted: list[dict] = []
    panel.changed.connect(emitted.append)
    panel.set_rows([{"skills": ["Python", "Go"], "languages": ["German"]}])
    assert emitted == []  # nothing was chosen, nothing changed
    python = next(panel.skills.item(i) for i in range(panel.skills.count())
                  if panel.skills.item(i).data(Qt.ItemDataRole.UserRole) == "Python")
    python.setCheckState(Qt.CheckState.Checked)
    assert emitted and emitted[-1]["skills"] == {"Python"}
    emitted.clear()
    panel.set_rows([{"skills": ["Python"], "languages": []}, {"skills": ["Rust"], "languages": []}])
    assert emitted == []  # Python is still there and still ticked
    assert panel.selected_skills() == {"Python"}
    panel.set_rows([{"skills": ["Rust"], "languages": []}])
    assert len(emitted) == 1 and emitted[0]["skills"] == set()
