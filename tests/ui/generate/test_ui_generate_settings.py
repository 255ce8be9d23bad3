"""Generate pane (generate, then import these) and the settings dialog (validation, test connection)."""

from __future__ import annotations

import json

from cvrag_desktop.config import load_settings
from cvrag_desktop.ui.dialogs.settings_dialog import SettingsDialog, check_url
from cvrag_desktop.ui.shell.main_window import IMPORT


def test_generate_then_import_these(window, qtbot, tmp_path):
    pane = window.generate
    pane.count.setValue(3)
    pane.seed.setValue(11)
    pane.out_dir.setText(str(tmp_path / "gen"))
    assert not pane.import_btn.isEnabled()
    with qtbot.waitSignal(pane.generated, timeout=120_000) as blocker:
        pane.generate_btn.click()
    assert len(blocker.args[0]["generated"]) == 3
    assert len(list((tmp_path / "gen").glob("*.pdf"))) == 3
    qtbot.waitUntil(pane.import_btn.isEnabled, timeout=5_000)
    with qtbot.waitSignal(window.importer.batch_finished, timeout=300_000) as blocker:
        pane.import_btn.click()
    assert window.current_pane() == IMPORT
    assert blocker.args[0].ingested == 3


def test_generate_rejects_bad_layout_inline(window, qtbot, tmp_path):
    pane = window.generate
    layouts = {pane.layout_box.itemText(i) for i in range(pane.layout_box.count())}
    locales = {pane.locale.itemText(i) for i in range(pane.locale.count())}
    assert {"mixed", "classic", "moderncv", "linkedin", "wordtable"} <= layouts  # every factory layout is offered
    assert {"mixed", "en_GB", "pl_PL", "nl_NL"} <= locales
    pane.layout_box.setEditText("nonsense")
    pane.out_dir.setText(str(tmp_path / "bad"))
    pane.start()
    qtbot.waitUntil(lambda: pane.message.kind == "error", timeout=30_000)
    assert "layout" in pane.message.text()


def test_settings_validation_and_persistence(window, qtbot):
    dlg = SettingsDialog(window.services, window.runner, window)
    qtbot.addWidget(dlg)
    dlg.llm_url.setText("ftp://nowhere")
    dlg.save()
    assert dlg.message.kind == "error" and "Ollama URL" in dlg.message.text()
    assert dlg.saved is None
    dlg.llm_url.setText("http://127.0.0.1:99999")
    dlg.save()
    assert dlg.message.kind == "error" and "port" in dlg.message.text()
    dlg.llm_url.setText("http://127.0.0.1:11434")
    dlg.index_url.setText("qdrant-box")
    dlg.save()
    assert dlg.message.kind == "error" and "Qdrant" in dlg.message.text()
    dlg.index_url.setText("")
    dlg.workers.setValue(3)
    dlg.ocr.setChecked(False)
    dlg.save()
    assert dlg.saved is not None
    paths = window.services.paths
    on_disk = json.loads(paths.settings_file.read_text(encoding="utf-8"))
    assert on_disk["workers"] == 3 and on_disk["ocr_enabled"] is False
    assert load_settings(paths).workers == 3
    assert window.services.settings.workers == 3


def test_settings_test_connection(window, qtbot, ollama_stub):
    dlg = SettingsDialog(window.services, window.runner, window)
    qtbot.addWidget(dlg)
    dlg.llm_url.setText("http://127.0.0.1:9")  # nothing listens there
    dlg.test_connection()
    qtbot.waitUntil(lambda: dlg.test_btn.isEnabled(), timeout=15_000)
    assert "Not reachable" in dlg.test_result.text()
    assert "Errno" not in dlg.test_result.text() and "start Ollama" in dlg.test_result.text()
    dlg.llm_url.setText(ollama_stub.url)
    dlg.test_connection()
    qtbot.waitUntil(lambda: dlg.test_btn.isEnabled(), timeout=15_000)
    text = dlg.test_result.text()
    assert text.startswith("Connected") and "cvrag-default" in text


def test_check_url():
    assert check_url(" http://localhost:11434/ ", "x") == "http://localhost:11434"
    for bad in ("", "localhost:11434", "http://", "file:///etc"):
        try:
            check_url(bad, "x")
        except ValueError:
            continue
        raise AssertionError(bad)
