"""Single instance: a second holder is refused; a crashed holder leaves no stale lock."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from cvrag_desktop.single_instance import SingleInstanceLock

HOLDER = (
    "import sys, time\n"
    "from pathlib import Path\n"
    "from cvrag_desktop.single_instance import SingleInstanceLock\n"
    "lock = SingleInstanceLock(Path(sys.argv[1]))\n"
    "assert lock.acquire()\n"
    "print('held', flush=True)\n"
    "time.sleep(60)\n"
)


def test_second_holder_refused_then_released(tmp_path):
    first = SingleInstanceLock(tmp_path)
    assert first.acquire() and first.held
    second = SingleInstanceLock(tmp_path)
    assert not second.acquire()
    assert first.holder_pid() == os.getpid()
    first.release()
    assert second.acquire()
    second.release()


def test_does_not_create_anything_but_the_lock_file(tmp_path):
    with SingleInstanceLock(tmp_path / "data") as lock:
        assert lock.acquire()
    assert [p.name for p in (tmp_path / "data").iterdir()] == ["cvrag-desktop.lock"]


@pytest.mark.skipif(sys.platform == "win32", reason="uses SIGKILL")
def test_crashed_holder_leaves_no_stale_lock(tmp_path):
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "held"
        lock = SingleInstanceLock(tmp_path)
        assert not lock.acquire()
        assert lock.holder_pid() == proc.pid
        os.kill(proc.pid, signal.SIGKILL)  # a crash: no clean-up code runs
        proc.wait(timeout=10)
        deadline = time.monotonic() + 5
        while not lock.acquire() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert lock.held
        assert (tmp_path / "cvrag-desktop.lock").exists()
        lock.release()
    finally:
        if proc.poll() is None:
            proc.kill()
