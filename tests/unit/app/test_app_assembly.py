"""The application layer itself: assembled in one place, typed operation modules, the rules re-exported once."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from cvrag_desktop.app import rules
from cvrag_desktop.app.assembly import App
from cvrag_desktop.app.chat import ASK_KEYS, CITATION_KEYS, ask_json
from cvrag_desktop.app.library import generator_choices
from cvrag_desktop.app.session import typed_error
from cvrag_desktop.errors import CvragError, InvalidInput, NotFound

OPERATIONS = ("library", "people", "screening", "blind", "search", "chat", "jobs", "compliance", "health")


def test_one_app_exposes_every_operation_module_and_opens_stores_lazily():
    app = App()
    try:
        for name in OPERATIONS:
            ops = getattr(app, name)
            assert type(ops).__module__ == f"cvrag_desktop.app.{name}"
            assert ops.__doc__, name
        assert app._catalog is None and app._index is None and app._assistant is None  # nothing opened yet
        assert app.people.list_people() == [] and app.library.counts()["candidates"] == 0
        assert app._index is None and app._assistant is None  # listing never opens the index or the assistant
    finally:
        app.close()
    assert app._catalog is None


def test_operations_refuse_bad_requests_with_typed_errors(tmp_path):
    app = App()
    try:
        with pytest.raises(InvalidInput):
            app.library.ingest([])
        with pytest.raises(InvalidInput):
            app.library.ingest([tmp_path / "missing"])
        with pytest.raises(NotFound):
            app.people.get_candidate("nobody")
        with pytest.raises(NotFound):
            app.blind.reveal_candidate("nobody")
        with pytest.raises(InvalidInput):
            app.screening.set_screening([])
        assert app.compliance.forget([]) == {"candidate_ids": [], "files_removed": 0, "threads_removed": [],
                                             "pending": []}
        assert app.library.failed_files() == [] and app.library.rebuild_status() is None
    finally:
        app.close()


def test_settings_are_saved_and_used_by_the_session():
    app = App()
    try:
        changed = app.settings.model_copy(update={"workers": 1, "llm_enabled": False})
        app.health.save_settings(changed)
        assert app.settings.workers == 1
        assert App(app.paths).settings.workers == 1  # persisted in the config folder
        assert app.health.llm_info()["llm_enabled"] is False
    finally:
        app.close()


def test_ask_json_keeps_the_cli_contract():
    result = {k: k for k in ASK_KEYS} | {"citations": [{k: k for k in CITATION_KEYS} | {"extra": 1}], "x": 2}
    out = ask_json(result)
    assert list(out) == [*ASK_KEYS, "citations"]
    assert out["citations"] == [{k: k for k in CITATION_KEYS}]


def test_typed_error_for_an_unexpected_store_failure(tmp_path):
    err = typed_error(sqlite3.DatabaseError("database disk image is malformed"), tmp_path)
    assert isinstance(err, CvragError) and "reindex" in err.message  # not the catalog: the index is rebuilt
    assert typed_error(ValueError("x"), tmp_path) is None


def test_rules_are_the_core_rules_re_exported_once():
    from cvrag_desktop.catalog import screening
    from cvrag_desktop.catalog.privacy import blind

    assert rules.pseudonym is blind.pseudonym and rules.STATUSES is screening.STATUSES
    assert set(rules.__all__) <= set(dir(rules))
    locales, layouts = generator_choices()
    assert locales[0] == "mixed" and layouts[0] == "mixed" and len(layouts) > 1


def test_previews_of_a_pdf_are_the_file_itself(tmp_path):
    from cvrag_desktop.app.health import document_preview, document_preview_boxes

    pdf = str(Path(tmp_path) / "x.pdf")
    assert document_preview(pdf, None, None) == (pdf, 0, None)
    assert document_preview_boxes(pdf, [(0, (1, 2, 3, 4))]) == [(0, (1, 2, 3, 4))]
