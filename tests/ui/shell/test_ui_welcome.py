"""First run: an empty library shows what to do; "Try with sample CVs" generates invented CVs,
imports them and marks them as demo."""

from __future__ import annotations

from cvrag_desktop.ui.demo import DEMO_TAG
from cvrag_desktop.ui.shell.main_window import CANDIDATES


def test_first_run_welcome_and_sample_cvs(window, qtbot, monkeypatch, tmp_path):
    pane = window.candidates
    window.show_pane(CANDIDATES)
    with qtbot.waitSignal(pane.loaded, timeout=30_000):
        pane.reload()
    assert pane.views.currentWidget() is pane.welcome
    assert "No CVs yet" in pane.welcome.text.text()
    opened = []
    monkeypatch.setattr(window, "open_settings", lambda: opened.append("settings"))
    window.candidates.welcome.settings_requested.disconnect()
    window.candidates.welcome.settings_requested.connect(window.open_settings)
    pane.welcome.settings_btn.click()
    assert opened == ["settings"]
    monkeypatch.setattr("cvrag_desktop.ui.shell.main_window.SAMPLE_COUNT", 3)
    window.generate.out_dir.setText(str(tmp_path / "samples"))
    with qtbot.waitSignal(window.importer.batch_finished, timeout=300_000):
        pane.welcome.samples_btn.click()
    # the rows reload after the batch (the tags are set at its end)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 3 and all(DEMO_TAG in r["tags"] for r in pane.model.rows()),
                    timeout=60_000)
    assert pane.views.currentWidget() is pane.main_view
