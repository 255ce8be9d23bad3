"""The seal covers every file of the shard: a changed byte or a cut anywhere is found before the load.

Edge checks no checksum of its own, and some damage aborts the whole process when loaded (random
bytes in the id tracker: "memory allocation of 51539607192 bytes failed", exit 134). These tests
never load a damaged shard in the pytest process: they only compare it with its seal.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from cvrag_desktop.index.edge import files as edge_files
from cvrag_desktop.index.edge.engine import SHARD_DIR, EdgeIndex
from tests.unit.index.edge.test_edge_engine import random_corpus

KINDS = ("edge_config.json", "wal/", "segment.json", "version.info", "mutable_id_tracker.mappings",
         "mutable_id_tracker.versions", "vector_storage-dense/", "vector_storage-bm25/", "payload_storage/",
         "payload_index/")


@pytest.fixture(scope="module")
def sealed(tmp_path_factory) -> Path:
    """A shard written with the random corpus and closed cleanly (sealed)."""
    folder = tmp_path_factory.mktemp("sealed")
    rows, payloads = random_corpus()
    e = EdgeIndex(folder)
    e.replace(list(payloads), rows, payloads)
    e.delete_candidate("c3")  # a delete record in the WAL too
    e.close()
    return folder


def overwrite(path: Path, seed: int = 3) -> None:
    """Random bytes over the middle of the file's written part (its zeros when it has none), size unchanged."""
    data = path.read_bytes()
    used = len(data.rstrip(b"\0")) or len(data)
    n = min(64, len(data))
    at = max(0, min(used // 2, len(data) - n))
    rng = random.Random(seed)
    new = bytes(rng.randrange(1, 256) for _ in range(n))
    with path.open("r+b") as fh:
        fh.seek(at)
        fh.write(new)
    assert path.stat().st_size == len(data)


def truncate(path: Path) -> None:
    """Cut the file to half its size."""
    with path.open("r+b") as fh:
        fh.truncate(path.stat().st_size // 2)


def test_every_kind_of_file_is_in_the_seal(sealed):
    seal = (sealed / edge_files.SEAL_NAME).read_text(encoding="utf-8")
    files = [f.relative_to(sealed / SHARD_DIR).as_posix() for f in (sealed / SHARD_DIR).rglob("*") if f.is_file()]
    for kind in KINDS:
        assert any(kind in f for f in files), kind
    for f in files:
        assert f'"{f}"' in seal, f  # size and digest of every file, the WAL included
    assert edge_files.check_seal(sealed, sealed / SHARD_DIR) is None


@pytest.mark.parametrize("damage", [overwrite, truncate], ids=["same-size", "truncated"])
def test_damage_to_any_file_is_found_before_the_load(sealed, tmp_path, damage):
    shard = sealed / SHARD_DIR
    files = sorted(f.relative_to(shard) for f in shard.rglob("*") if f.is_file() and f.stat().st_size)
    missed = []
    for rel in files:
        copy = tmp_path / rel.as_posix().replace("/", "_")
        shutil.copytree(sealed, copy)
        damage(copy / SHARD_DIR / rel)
        if edge_files.check_seal(copy, copy / SHARD_DIR) is None:
            missed.append(str(rel))
        shutil.rmtree(copy)
    assert not missed
    assert len(files) > 40  # segments, id tracker, payload indexes, WAL, config


def test_bytes_written_into_a_hole_and_a_zeroed_block_are_found(sealed, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(sealed, copy)
    page = next((copy / SHARD_DIR / "segments").glob("*/payload_storage/page_0.dat"))
    with page.open("r+b") as fh:  # far past the written part: a hole of the sparse file
        fh.seek(page.stat().st_size - 4096)
        fh.write(b"\x01")
    assert "changed after it was closed" in edge_files.check_seal(copy, copy / SHARD_DIR)
    shutil.rmtree(copy)
    shutil.copytree(sealed, copy)
    mappings = next((copy / SHARD_DIR / "segments").glob("*/mutable_id_tracker.mappings"))
    mappings.write_bytes(bytes(mappings.stat().st_size))  # all zeros, same size
    assert "mutable_id_tracker.mappings" in edge_files.check_seal(copy, copy / SHARD_DIR)


def test_a_file_added_or_an_older_seal_is_not_trusted(sealed, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(sealed, copy)
    (copy / SHARD_DIR / "wal" / "open-9").write_bytes(b"x")
    assert "was added" in edge_files.check_seal(copy, copy / SHARD_DIR)
    (copy / edge_files.SEAL_NAME).write_text('{"version": 1, "sizes": {}}', encoding="utf-8")
    assert not edge_files.has_seal(copy)  # an older app's seal: the shard is probed in a child first


def test_what_a_file_manager_or_sync_tool_drops_in_the_shard_is_not_damage(sealed, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(sealed, copy)
    for name in (".DS_Store", "Thumbs.db", "desktop.ini", ".syncthing.marker"):
        (copy / SHARD_DIR / name).write_bytes(b"litter")
    assert edge_files.check_seal(copy, copy / SHARD_DIR) is None
