"""A shard that would abort the process is found before this process loads it.

Random bytes in the id tracker's mappings make Edge ask for tens of GB and abort ("memory
allocation of 51539607192 bytes failed", exit 134): no Python handler runs. With a seal, the
check finds the change before the load; without one (a crash), the shard is loaded in a child
process first (``index/edge/probe.py``). The opening runs in a subprocess here, so a regression
aborts that process, not pytest.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from cvrag_desktop.index.edge import files as edge_files
from cvrag_desktop.index.edge.engine import SHARD_DIR, EdgeIndex
from cvrag_desktop.index.edge.probe import probe_shard
from tests.unit.index.edge.test_edge_engine import random_corpus

ROOT = str(Path(__file__).resolve().parents[4])
OPEN = """
import sys
from pathlib import Path
from cvrag_desktop.index.edge import store
folder = Path(sys.argv[1])
s = store.IndexStore(folder)
print("points", s.count())
print("reason", store.damage_reasons.get(str(folder.resolve())))
s.close()
"""


def _shard(folder: Path) -> int:
    rows, payloads = random_corpus()
    e = EdgeIndex(folder)
    e.replace(list(payloads), rows, payloads)
    e.close()
    return len(rows)


def _poison_id_tracker(folder: Path) -> None:
    """An internal id of 2^31 in the first mapping record: loading it aborts the process."""
    mappings = next((folder / SHARD_DIR / "segments").glob("*/mutable_id_tracker.mappings"))
    with mappings.open("r+b") as fh:
        fh.seek(17)  # change byte, 16-byte UUID, then the internal id
        fh.write(b"\xf0\xff\xff\x7f")


def _open_in_subprocess(folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", OPEN, str(folder)], capture_output=True, text=True, timeout=300,
                          cwd=ROOT)


def test_an_unsealed_shard_that_aborts_the_engine_is_set_aside(tmp_path):
    _shard(tmp_path)
    edge_files.drop_seal(tmp_path)  # as after a crash
    _poison_id_tracker(tmp_path)
    out = _open_in_subprocess(tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]  # was 134 (SIGABRT) before the probe
    assert "points 0" in out.stdout  # a fresh shard: the catalog refills it (SearchService.reconcile)
    assert "stopped the search engine (SIGABRT)" in out.stdout
    assert "memory allocation" not in out.stderr + out.stdout  # the engine's words stay in probe.log
    assert "memory allocation" in (tmp_path / "probe.log").read_text(encoding="utf-8")
    assert (tmp_path / (SHARD_DIR + ".damaged")).is_dir()


def test_a_sealed_shard_with_a_damaged_id_tracker_is_never_loaded(tmp_path):
    _shard(tmp_path)
    _poison_id_tracker(tmp_path)
    out = _open_in_subprocess(tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "points 0" in out.stdout
    assert "mutable_id_tracker.mappings changed after it was closed" in out.stdout
    assert not (tmp_path / "probe.log").exists()  # the seal found it: no child needed


def test_a_sound_unsealed_shard_is_probed_then_sealed(tmp_path):
    n = _shard(tmp_path)
    edge_files.drop_seal(tmp_path)
    assert probe_shard(tmp_path, tmp_path / SHARD_DIR) is None
    assert edge_files.has_seal(tmp_path)  # the child closed it cleanly and sealed it
    assert edge_files.check_seal(tmp_path, tmp_path / SHARD_DIR) is None
    e = EdgeIndex(tmp_path)
    try:
        assert e.count() == n
    finally:
        e.close()


OPEN_READ_ONLY = """
import sys
from pathlib import Path
from cvrag_desktop.index.edge import store
store.dir_writable = lambda _p: False  # a read-only mount (root may write anywhere, so it is told)
try:
    store.IndexStore(Path(sys.argv[1]))
except store.ShardDamaged as exc:
    print("refused", exc)
"""


def test_a_read_only_folder_never_loads_an_unsealed_shard_that_aborts_the_engine(tmp_path):
    _shard(tmp_path)
    edge_files.drop_seal(tmp_path)  # as after a crash
    _poison_id_tracker(tmp_path)
    (tmp_path / ".lock").touch()  # a folder the app has used has its lock file
    out = subprocess.run([sys.executable, "-c", OPEN_READ_ONLY, str(tmp_path)], capture_output=True, text=True,
                         timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]  # was 134: the private copy was loaded in-process unchecked
    assert out.stdout.startswith("refused"), out.stdout
