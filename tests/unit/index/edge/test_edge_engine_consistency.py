"""Index/catalog consistency: reconcile, rebuild, delete, ingestion lane, bad input."""

from __future__ import annotations

import shutil

import pytest

from cvrag_desktop.errors import InvalidInput
from cvrag_desktop.index.edge.engine import SHARD_DIR
from tests.unit.index.conftest import PEOPLE, add_person


def point_candidates(service) -> set[str]:
    return {r["candidate_id"] for r in service.store.scroll(fields=["candidate_id"])}


def test_reconcile_removes_orphans_and_adds_missing(service, catalog):
    catalog.delete_candidate("cand_dan")
    extra = dict(PEOPLE[0], cid="cand_eve", name="Eve Stone")
    add_person(catalog, extra)
    report = service.reconcile()
    assert report["orphans_removed"] == 6 and report["candidates_indexed"] == 1
    assert point_candidates(service) == {"cand_ana", "cand_ben", "cand_cara", "cand_eve"}
    assert service.reconcile() == {"orphans_removed": 0, "candidates_indexed": 0, "points_written": 0}


def test_rebuild_and_delete(service, catalog):
    n = service.store.count()
    assert service.rebuild()["points"] == n
    service.delete_candidate("cand_ana")
    assert "cand_ana" not in point_candidates(service)
    assert service.search("", {"skills": ["kafka"]}, strategy="metadata") == []


def test_enqueue_lane_indexes_in_background(service, catalog):
    add_person(catalog, dict(PEOPLE[1], cid="cand_fay", name="Fay Rios"))
    service.enqueue("cand_fay")
    assert service.wait_idle(timeout=60)
    assert "cand_fay" in point_candidates(service)


def test_bad_inputs_give_clear_errors_or_empty_results(service):
    with pytest.raises(InvalidInput, match="search for"):
        service.search("   ")
    assert {h["candidate_id"] for h in service.search("", {"skills": ["kafka"]})} == {"cand_ana"}  # → metadata
    assert len(service.search("kafka " * 2000, k=3)) == 3  # 12,000 characters, truncated safely
    with pytest.raises(InvalidInput, match="Unknown filter field"):
        service.search("kafka", {"favourite_colour": "blue"})
    with pytest.raises(InvalidInput):
        service.search("kafka", strategy="psychic")
    with pytest.raises(InvalidInput):
        service.search("kafka", k=0)
    assert service.search("kafka", {"skills": ["cobol"]}) == []
    assert service.search("kafka", {"skills": ["cobol"]}, strategy="filtered") == []
    assert service.search("\x00\x07", {"min_years": 50}) == []


def test_index_folder_deleted_while_running_is_rebuilt(service):
    n = service.store.count()
    shutil.rmtree(service.paths.index_dir)
    hits = service.search("Kafka", k=1)
    assert hits[0]["candidate_id"] == "cand_ana"
    assert service.store.count() == n
    assert (service.paths.index_dir / SHARD_DIR / "segments").exists()


def test_status_reports_models_and_points(service):
    st = service.status()
    assert st["mode"] == "local" and st["points"] > 0
    assert st["engine"].startswith("qdrant edge 0.9.0") and st["segments"] >= 1 and st["disk_mb"] > 0
    assert st["models"]["dense_onnx_source"] in ("wheel", "resources", "user")
    assert st["models"]["tokenizer_source"] == "resources"
    assert st["reranker"]["available"] is False
