"""Damage that keeps every file's size: random bytes inside the shard's largest file.

The seal (sizes; digests of vector files only) and the load both pass; the first read
fails inside Edge ("Failed to decompress LZ4 value…"). Search, ask and reindex must each
treat that as damage: the shard is set aside and refilled from the catalog, and the
operation returns the right result.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cvrag_desktop.config import Settings, app_paths
from cvrag_desktop.index.edge import store
from cvrag_desktop.index.edge.files import write_seal
from cvrag_desktop.index.edge.shard import SHARD_DIR, is_shard_error


def largest_file(shard: Path) -> Path:
    """The shard's largest file (the write-ahead log aside; payload storage first among equals)."""
    files = [f for f in shard.rglob("*") if f.is_file() and "wal" not in f.relative_to(shard).parts]
    return max(files, key=lambda f: (f.stat().st_size, "payload_storage" in f.parts))


def corrupt_middle(path: Path, n: int = 4096, seed: int = 7) -> None:
    """Overwrite ``n`` bytes in the middle of the file's written part with random ones (same size)."""
    data = path.read_bytes()
    used = len(data.rstrip(b"\0"))
    at = max(0, used // 2 - n // 2)
    rng = random.Random(seed)
    with path.open("r+b") as fh:
        fh.seek(at)
        fh.write(bytes(rng.randrange(256) for _ in range(min(n, len(data) - at))))
    assert path.stat().st_size == len(data)


@pytest.fixture
def damaged(service, catalog):
    """The fixture index closed (sealed), then corrupted inside its largest file; yields (points before, file)."""
    n = service.store.count()
    index_dir = service.paths.index_dir
    service.close()
    target = largest_file(index_dir / SHARD_DIR)
    corrupt_middle(target)
    write_seal(index_dir, index_dir / SHARD_DIR)  # damage the seal cannot tell (it happened during a session)
    yield n, target
    store.damaged_dirs.clear()
    store.damage_reasons.clear()


def _fresh(catalog):
    from cvrag_desktop.index.service import SearchService

    return SearchService(catalog, app_paths(), Settings())


def _assert_repaired(svc, n: int) -> None:
    index_dir = svc.paths.index_dir
    assert (index_dir / (SHARD_DIR + ".damaged")).is_dir()  # set aside, as damage found at open is
    assert "damaged" in svc.status()["repaired"]
    assert svc.store.count() == n


def test_the_corruption_really_breaks_reads(damaged, catalog):
    """Without this, the other tests could pass on bytes nobody reads."""
    from cvrag_desktop.index.edge.store import IndexStore

    s = IndexStore(app_paths().index_dir)  # opens: sizes and vector digests still match the seal
    try:
        with pytest.raises(Exception) as err:  # Edge raises a plain Exception
            s.scroll()
        assert is_shard_error(err.value)
        print(f"\n{damaged[1].name}: {str(err.value)[:120]}")
    finally:
        s.close()


def test_search_repairs_and_answers(damaged, catalog):
    svc = _fresh(catalog)
    try:
        hits = svc.search("Kafka", k=1)
        assert hits[0]["candidate_id"] == "cand_ana"
        react = {h["candidate_id"] for h in svc.search(None, {"skills": ["React"]}, strategy="metadata")}
        assert react == {"cand_ben"}
        _assert_repaired(svc, damaged[0])
    finally:
        svc.close()


def test_reindex_repairs(damaged, catalog):
    svc = _fresh(catalog)
    try:
        report = svc.rebuild()
        assert report["candidates"] == 4 and report["points"] == damaged[0]
        assert svc.search("streaming pipelines", k=1)[0]["candidate_id"] == "cand_ana"
        _assert_repaired(svc, damaged[0])
    finally:
        svc.close()


def test_ask_repairs_and_cites_the_right_cv(damaged, catalog):
    from cvrag_desktop.assistant.service import AssistantService

    svc = _fresh(catalog)
    assistant = AssistantService(catalog, svc, app_paths(), Settings(llm_enabled=False))
    try:
        result = assistant.ask("Who builds accessible interfaces?", use_llm=False)
        assert result["status"] == "answered"
        assert result["citations"][0]["candidate_id"] == "cand_ben"
        _assert_repaired(svc, damaged[0])
    finally:
        assistant.close()
        svc.close()


def test_the_repaired_shard_opens_cleanly_next_time(damaged, catalog):
    svc = _fresh(catalog)
    try:
        svc.search("Kafka", k=1)
    finally:
        svc.close()
    store.damaged_dirs.clear()
    again = _fresh(catalog)
    try:
        assert again.store.count() == damaged[0]
        assert again.search("Kafka", k=1)[0]["candidate_id"] == "cand_ana"
    finally:
        again.close()


def test_the_apps_own_errors_are_not_damage():
    from cvrag_desktop.errors import InvalidInput

    assert not is_shard_error(InvalidInput("k must be between 1 and 200."))
    assert not is_shard_error(Exception("Resource temporarily unavailable (os error 11): WouldBlock"))
    assert not is_shard_error(ValueError("bad"))
    assert is_shard_error(Exception("Service runtime error: Failed to decode value"))
