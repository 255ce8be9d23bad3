"""Windows that fit: no top-level window or dialog is larger than a laptop's screen, the panes stay
usable at 1024×700, and a dialog remembers its size without ever reopening larger than the screen."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QRect, QSize

from cvrag_desktop.ui.shell.fit import FRAME_H, FRAME_W, fit_size, remember_size

PROBE = Path(__file__).with_name("fit_probe.py")


def test_fit_size_shrinks_to_the_screen_and_never_grows():
    small = QRect(0, 0, 1024, 700)
    assert fit_size(QSize(1400, 860), small) == QSize(1024 - FRAME_W, 700 - FRAME_H)
    assert fit_size(QSize(600, 400), small) == QSize(600, 400)
    half = fit_size(QSize(5000, 5000), small, fraction=0.5)
    assert half.width() <= 512 and half.height() <= 350


def _probe(tmp_path: Path, width: int, height: int) -> dict:
    config = tmp_path / "screen.json"
    config.write_text(json.dumps({"screens": [{"name": "laptop", "x": 0, "y": 0, "width": width, "height": height,
                                               "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}", CVRAG_HOME=str(tmp_path / "home"),
               CVRAG_LLM_URL="http://127.0.0.1:9")
    done = subprocess.run([sys.executable, str(PROBE)], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(("width", "height"), [(1024, 700), (1366, 768)])
def test_no_window_exceeds_a_small_screen_and_the_panes_stay_usable(tmp_path, width, height):
    out = _probe(tmp_path, width, height)
    assert out["screen"] == [0, 0, width, height]
    assert set(out["windows"]) == {"main", "job_match", "settings", "audit", "retention"}
    for name, (x, y, w, h) in out["windows"].items():
        assert x >= 0 and y >= 0 and x + w <= width and y + h <= height, (name, x, y, w, h)
    assert out["other_top_levels"] == []
    assert out["status_visible"] and out["status_bar_bottom"] < out["window_height"]  # the status bar on screen
    assert out["chat_input_width"] >= 250  # a question box, not a 100-pixel slot
    assert out["table_columns_whole"] >= 2 and out["table_width"] >= 350
    facets, center, preview = out["candidate_parts"]
    assert center >= max(facets, preview)  # the table and record get the largest share


def test_a_dialog_remembers_its_size_but_never_reopens_larger_than_the_screen(qtbot, services):
    from PySide6.QtWidgets import QDialog

    big, small = QRect(0, 0, 1920, 1080), QRect(0, 0, 1024, 700)
    first = QDialog()
    qtbot.addWidget(first)
    remember_size(first, services, "probe", QSize(700, 500), available=big)
    assert first.size() == QSize(700, 500)
    first.resize(1500, 950)
    first.show()
    first.close()
    again = QDialog()
    qtbot.addWidget(again)
    remember_size(again, services, "probe", QSize(700, 500), available=big)
    assert again.size() == QSize(1500, 950)  # the size the user gave it
    third = QDialog()
    qtbot.addWidget(third)
    remember_size(third, services, "probe", QSize(700, 500), available=small)
    assert third.width() <= 1024 - FRAME_W and third.height() <= 700 - FRAME_H


def test_garbage_is_collected_on_the_gui_thread_while_a_window_is_open(window, qtbot):
    """Workers never run the cyclic collector (it could finalise the GUI thread's Qt objects)."""
    import gc

    assert not gc.isenabled()
    garbage = []
    for _ in range(2000):  # cycles enough to pass the first generation's threshold
        a: list = []
        a.append(a)
        garbage.append(a)
    del garbage
    qtbot.waitUntil(lambda: gc.get_count()[0] < gc.get_threshold()[0], timeout=10_000)
