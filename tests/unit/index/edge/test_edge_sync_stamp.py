"""A start trusts the index without opening it only when its last clean close left it in sync."""

from __future__ import annotations

from cvrag_desktop.config import Settings, app_paths
from cvrag_desktop.index.edge.sync_stamp import STAMP_NAME
from cvrag_desktop.index.service import SearchService
from tests.unit.index.conftest import PEOPLE, add_person


def _session(catalog) -> SearchService:
    return SearchService(catalog, app_paths(), Settings())


def _stamped(catalog) -> None:
    """An index built, then one clean session that reconciled and wrote nothing (it leaves the stamp)."""
    svc = _session(catalog)
    svc.rebuild()
    svc.close()
    assert not (app_paths().index_dir / STAMP_NAME).exists()  # a session that wrote leaves none
    svc = _session(catalog)
    assert svc.start() is not None  # no stamp yet: reconciled
    svc.close()
    assert (app_paths().index_dir / STAMP_NAME).exists()


def test_a_start_after_a_clean_close_opens_no_shard_until_a_search(catalog):
    _stamped(catalog)
    svc = _session(catalog)
    assert svc.start() is None
    assert svc._store is None  # a metadata answer from the catalog never opens the shard
    hits = svc.search(None, {"languages": ["German"]}, strategy="metadata", k=20)
    assert {h["candidate_id"] for h in hits} == {"cand_ana", "cand_dan"}
    svc.close()
    again = _session(catalog)
    assert again.start() is None  # the read-only session re-stamped the index it closed
    again.close()


def test_a_catalog_change_since_the_stamp_reconciles(catalog):
    _stamped(catalog)
    extra = dict(PEOPLE[0], cid="cand_eve", name="Eve Marsh", languages=["German"])
    add_person(catalog, extra)  # e.g. an import whose indexing never ran (killed before its lane wrote)
    svc = _session(catalog)
    report = svc.start()
    assert report is not None and report["candidates_indexed"] == 1
    hits = svc.search(None, {"languages": ["German"]}, strategy="metadata", k=20)
    assert "cand_eve" in {h["candidate_id"] for h in hits}
    svc.close()


def test_a_session_that_wrote_or_a_missing_seal_is_not_trusted(catalog):
    _stamped(catalog)
    svc = _session(catalog)
    assert svc.start() is None
    svc.index_candidate("cand_ben")  # a write: the close must not vouch for the index
    svc.close()
    svc = _session(catalog)
    assert svc.start() is not None
    svc.close()
    (app_paths().index_dir / "seal.json").unlink()  # as after a crash: the open dropped the seal
    svc = _session(catalog)
    assert svc.start() is not None
    svc.close()
