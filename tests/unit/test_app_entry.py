"""``cvrag-desktop`` falls back to the headless demo where no window can be shown."""

from __future__ import annotations

import sys

from cvrag_desktop import app_entry


def test_no_display_detection(monkeypatch):
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert app_entry._no_display()
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    assert not app_entry._no_display()
    monkeypatch.delenv("QT_QPA_PLATFORM")
    monkeypatch.setattr(sys, "platform", "darwin")
    assert not app_entry._no_display()


def test_headless_fallback_runs_the_demo(monkeypatch, tmp_path):
    calls = []
    monkeypatch.setattr(app_entry, "_no_display", lambda: True)
    monkeypatch.setattr("cvrag_desktop.cli.entry.main", lambda argv: calls.append(argv) or 0)
    monkeypatch.setattr(sys, "argv", ["cvrag-desktop"])
    assert app_entry.main() == 0 and calls == [["demo"]]
