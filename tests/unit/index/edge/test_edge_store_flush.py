"""A flush that fails is a failure in our words: a typed error, a non-zero exit, never "Service runtime error".

Before: ``cvrag reindex`` on a full disk printed "flushing the search index failed: Service
runtime error: No space left on device (os error 28)" and exited 0 ("indexed N candidates").
"""

from __future__ import annotations

import pytest

from cvrag_desktop.config import Settings, app_paths
from cvrag_desktop.errors import DiskFull, IndexNotSaved
from cvrag_desktop.index.edge import engine

RAW = ("Service runtime error", "os error 28")


class FailingFlush:
    """The real shard, except that every flush fails with the engine's words."""

    def __init__(self, shard, words: str) -> None:
        self.shard = shard
        self.words = words

    def __getattr__(self, name):
        return getattr(self.shard, name)

    def flush(self) -> None:
        raise Exception(self.words)  # what Edge raises: a plain Exception


@pytest.fixture(params=["Service runtime error: No space left on device (os error 28)",
                        "Service runtime error: Input/output error (os error 5)"], ids=["full-disk", "io-error"])
def failing(request, monkeypatch):
    real = engine.open_shard
    monkeypatch.setattr(engine, "open_shard", lambda path: FailingFlush(real(path), request.param))
    return DiskFull if "os error 28" in request.param else IndexNotSaved


def test_a_rebuild_whose_flush_fails_raises_a_typed_error(catalog, failing):
    from cvrag_desktop.index.service import SearchService

    svc = SearchService(catalog, app_paths(), Settings())
    try:
        with pytest.raises(failing) as err:
            svc.rebuild()
        assert not any(w in err.value.message for w in RAW)
        assert "nothing was lost" in err.value.message or "catalog holds every change" in err.value.message
    finally:
        svc.close()  # the close's own failed flush is logged, not raised (the command already failed)


def test_reindex_exits_non_zero_without_the_engines_words(catalog, failing, capsys):
    from cvrag_desktop.cli.entry import main

    code = main(["reindex"])
    out = capsys.readouterr()
    assert code != 0
    assert "error:" in out.err and "indexed" not in out.out
    assert not any(w in out.out + out.err for w in RAW)


def test_a_forget_whose_flush_fails_stays_pending(catalog, failing):
    from cvrag_desktop.index.service import SearchService

    svc = SearchService(catalog, app_paths(), Settings())
    try:
        with pytest.raises(failing):
            svc.forget_candidates(["cand_ana"])  # run_forget keeps the step in the journal on a CvragError
    finally:
        svc.close()
