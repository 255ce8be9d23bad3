"""A zeroed catalog at start-up is explained and rebuilt from the library when the user agrees."""

from __future__ import annotations

from cvrag_desktop.app.assembly import App
from cvrag_desktop.ui.dialogs.catalog_repair import ensure_catalog
from tests.support.fault_cvs import write_corpus


def test_zeroed_catalog_is_offered_a_rebuild(qtbot, tmp_path):
    svc = App()
    assert svc.library.ingest([write_corpus(tmp_path / "in")[0].parent], use_llm=False, workers=1).ingested == 3
    db = svc.paths.catalog_db
    svc.close()
    db.write_bytes(b"")
    asked: list[str] = []
    svc = App()
    assert not ensure_catalog(svc, ask=lambda m: asked.append(m) or False)
    assert "empty" in asked[0] and "3 imported CV file(s)" in asked[0]
    svc.close()
    svc = App()
    assert ensure_catalog(svc, ask=lambda m: True)
    assert len(svc.people.list_candidates()) == 3
    svc.close()
