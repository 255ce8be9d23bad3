"""A second process gets IndexLocked; a crashed holder leaves no stale lock."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from cvrag_desktop.config import app_paths
from cvrag_desktop.errors import IndexLocked
from cvrag_desktop.index.edge.store import IndexStore

HOLD = """
import sys, time
from cvrag_desktop.index.edge.store import IndexStore
IndexStore(__import__('pathlib').Path(sys.argv[1]))
print('ready', flush=True)
time.sleep(120)
"""
TRY = """
import sys
from cvrag_desktop.errors import IndexLocked
from cvrag_desktop.index.edge.store import IndexStore
try:
    IndexStore(__import__('pathlib').Path(sys.argv[1]))
except IndexLocked as exc:
    print('LOCKED', exc.message)
    sys.exit(3)
print('OPEN')
"""


def _holder(index_dir) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(index_dir)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready"
    return proc


def test_second_process_gets_index_locked():
    index_dir = app_paths().index_dir
    store = IndexStore(index_dir)
    try:
        out = subprocess.run([sys.executable, "-c", TRY, str(index_dir)], capture_output=True, text=True, timeout=60)
        assert out.returncode == 3, out.stderr
        assert "open in another" in out.stdout
    finally:
        store.close()


def test_same_process_shares_one_client():
    index_dir = app_paths().index_dir
    a, b = IndexStore(index_dir), IndexStore(index_dir)
    try:
        assert a.client is b.client
    finally:
        a.close()
        b.close()


@pytest.mark.skipif(os.name == "nt", reason="SIGKILL")
def test_lock_of_a_killed_process_is_released():
    index_dir = app_paths().index_dir
    proc = _holder(index_dir)
    try:
        with pytest.raises(IndexLocked):
            IndexStore(index_dir)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    time.sleep(0.1)
    store = IndexStore(index_dir)  # the OS dropped the lock with the process
    assert store.count() == 0
    store.close()
