"""The GUI tests wait on signals and conditions, never on the clock: a fixed sleep is a race that
loses on a busy machine (issue 24: a suite that never flakes). This greps ``tests/ui``."""

from __future__ import annotations

import re
from pathlib import Path

UI_TESTS = Path(__file__).parent / "ui"
FIXED_WAIT = re.compile(r"\btime\.sleep\s*\(|\bsleep\s*\(|\bqtbot\.wait\s*\(|\bQTest\.qWait\s*\(|\.qWait\s*\(")


def fixed_waits(text: str) -> list[tuple[int, str]]:
    """(line number, line) of every sleep or fixed-time wait in a test file's text."""
    return [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1)
            if FIXED_WAIT.search(line.split("#", 1)[0])]


def test_the_pattern_catches_the_usual_fixed_waits():
    sample = "time.sleep(0.1)\nqtbot.wait(300)\nQTest.qWait(50)\nqtbot.waitUntil(f)\nqtbot.waitSignal(s)\n"
    assert [n for n, _ in fixed_waits(sample)] == [1, 2, 3]


def test_no_sleep_based_waits_in_the_gui_tests():
    found = {f"{path.relative_to(UI_TESTS)}:{n}": line for path in sorted(UI_TESTS.rglob("*.py"))
             for n, line in fixed_waits(path.read_text(encoding="utf-8"))}
    assert not found, f"wait on a signal or a condition instead: {found}"
