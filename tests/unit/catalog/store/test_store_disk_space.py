"""A data home on a real, full tmpfs: a typed "disk is full" message (exit 2), never a bus error, nothing lost.

The index engine writes through memory-mapped files; on a full filesystem a touched page is
a SIGBUS that kills the process (``catalog/store/disk_space.py``). Each command runs in a
subprocess, so a bus error fails the test instead of killing pytest. Needs root (mount).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.fault_cvs import write_corpus

REPO = Path(__file__).resolve().parents[4]


@contextlib.contextmanager
def tmpfs(size: str) -> Iterator[Path]:
    """A fresh tmpfs of ``size`` mounted on a temporary folder (skips the test when it cannot be mounted)."""
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("mounting a tmpfs needs root")
    where = Path(tempfile.mkdtemp(prefix="cvrag-full-"))
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        where.rmdir()
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)
        with contextlib.suppress(OSError):
            where.rmdir()


def cvrag(home: Path, *argv: str) -> subprocess.CompletedProcess:
    """``cvrag ARGV`` in a process of its own on the data home ``home``."""
    env = {**os.environ, "CVRAG_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "cvrag_desktop.cli", *argv], capture_output=True, text=True,
                          env=env, cwd=str(REPO), timeout=600)


def assert_typed_full(r: subprocess.CompletedProcess, argv) -> None:
    """Exit 2 (not -7, SIGBUS) with the typed message, no traceback."""
    text = r.stdout + r.stderr
    assert r.returncode == 2, (argv, r.returncode, text[-2000:])
    assert "Traceback" not in text and "unexpected error" not in text, text
    assert "The disk holding" in text and "is full" in text and "MB free" in text, (argv, text[-2000:])


def fill(mount: Path, leave_kb: int) -> Path:
    """Grow a filler file until ``leave_kb`` KB are left free on ``mount`` (again before each command: a
    closing store may give some back)."""
    filler = mount / "filler"
    free_kb = shutil.disk_usage(mount).free // 1024
    with open(filler, "ab") as fh:
        block = b"\0" * (1 << 20)
        left = max(0, free_kb - leave_kb) * 1024
        while left > 0:
            left -= fh.write(block[:min(len(block), left)])
    return filler


def test_import_into_a_full_tmpfs_is_a_typed_error(tmp_path):
    """A 2 MB tmpfs: the import is refused before anything is written (it died of SIGBUS before)."""
    folder = tmp_path / "in"
    write_corpus(folder)
    with tmpfs("2m") as mount:
        r = cvrag(mount / "home", "ingest", str(folder), "--no-llm")
        assert_typed_full(r, "ingest")
        print(f"\nfull tmpfs: {r.stderr.strip()}")
        assert not list((mount / "home").rglob("*.sqlite3")), "nothing was written"


def test_nearly_full_tmpfs_after_an_import(tmp_path):
    """After an import the disk fills up: reads work, writes say the disk is full; freed, all is whole."""
    folder = tmp_path / "in"
    write_corpus(folder)
    with tmpfs("400m") as mount:
        home = mount / "home"
        r = cvrag(home, "ingest", str(folder), "--no-llm", "--json")
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["ingested"] == 3
        listed = json.loads(cvrag(home, "candidates", "list", "--json").stdout)
        target = listed[0]["id"]
        jd = tmp_path / "jd.txt"
        jd.write_text("Backend engineer. Must have: Python, Kafka.", encoding="utf-8")
        filler = fill(mount, 1024)
        for argv in (["ingest", str(folder), "--no-llm"], ["reindex"], ["screen", target, "--status", "interview"],
                     ["ask", "Who knows Kafka?", "--no-llm"], ["match", "--jd", str(jd), "--no-llm"],
                     ["export", str(tmp_path / "all.csv")], ["doctor", "--backup"], ["candidates", "delete", target],
                     ["forget", "--failed"], ["search", "Kafka"]):
            fill(mount, 1024)
            assert_typed_full(cvrag(home, *argv), argv)
        assert not (tmp_path / "all.csv").exists(), "an export that cannot be audited is not written"
        for argv in (["candidates", "list", "--json"], ["people", "list", "--json"], ["doctor", "--json"]):
            r = cvrag(home, *argv)
            assert r.returncode == 0 and "Traceback" not in r.stderr, (argv, r.stderr[-2000:])
        assert len(json.loads(cvrag(home, "candidates", "list", "--json").stdout)) == 3
        filler.unlink()  # space freed: everything is there, the index matches the catalog
        doctor = json.loads(cvrag(home, "doctor", "--json").stdout)
        assert doctor["counts"]["candidates"] == 3 and doctor["counts"].get("files_done") == 3
        assert doctor["index"]["points"] == doctor["counts"]["chunks"]
        assert not doctor["leftovers"]["items"], "nothing was set aside as damaged"
        screened = cvrag(home, "screen", target, "--json")
        assert json.loads(screened.stdout)[target]["status"] == "new", "the refused change was not half-made"
        found = cvrag(home, "search", "Kafka", "--json")
        assert found.returncode == 0 and json.loads(found.stdout)
