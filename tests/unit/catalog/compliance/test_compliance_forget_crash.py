"""A forget killed at any step is finished by the next start: the person is nowhere, the index WAL included.

``cvrag people forget`` runs in a subprocess that kills itself (SIGKILL) at a named point
(``CVRAG_CRASH_AT``, :func:`~cvrag_desktop.catalog.compliance.forget_journal.crash_point`): between
the journalled steps, after the index delete and before the rewrite, and at each stage of the
rewrite's swap. The next ``App`` finishes the journal without a reindex; then every file of the data
home — catalog, library copies, backups, the index's segments and write-ahead log — is grepped for
the person's name, e-mail and id.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from cvrag_desktop.app.assembly import App
from tests.support.fault_cvs import EMAIL, NAME, write_corpus
from tests.unit.catalog.compliance.test_compliance_forget import grep_home

ROOT = str(Path(__file__).resolve().parents[4])
POINTS = ["forget:library", "forget:threads", "forget:index", "index:deleted", "compact:written",
          "compact:set-aside", "compact:swapped", "forget:index:done"]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> tuple[Path, str]:
    """A data home with three imported CVs, closed cleanly; returns (home, the forgotten person's id)."""
    home = tmp_path_factory.mktemp("pristine") / "home"
    old = os.environ.get("CVRAG_HOME")
    os.environ["CVRAG_HOME"] = str(home)
    try:
        app = App()
        report = app.library.ingest([write_corpus(tmp_path_factory.mktemp("in"))[0].parent], use_llm=False,
                                    workers=1)
        assert report.ingested == 3, report
        cid = next(r["id"] for r in app.people.list_candidates() if r["name"] == NAME)
        app.close()
    finally:
        if old is None:
            os.environ.pop("CVRAG_HOME", None)
        else:
            os.environ["CVRAG_HOME"] = old
    return home, cid


@pytest.mark.skipif(os.name == "nt", reason="SIGKILL")
@pytest.mark.parametrize("point", POINTS)
def test_a_forget_killed_at_any_step_leaves_the_person_nowhere(pristine, point, tmp_path, monkeypatch):
    source, cid = pristine
    home = tmp_path / "home"
    shutil.copytree(source, home)
    assert grep_home(home, [cid])  # the index and the catalog hold the person before
    env = dict(os.environ, CVRAG_HOME=str(home), CVRAG_CRASH_AT=point)
    out = subprocess.run([sys.executable, "-m", "cvrag_desktop.cli", "people", "forget", cid], capture_output=True,
                         text=True, timeout=300, cwd=ROOT, env=env)
    assert out.returncode == -signal.SIGKILL, (out.returncode, out.stderr[-1500:])

    monkeypatch.setenv("CVRAG_HOME", str(home))
    app = App()  # opening the catalog finishes the journalled forget
    try:
        assert app.catalog.pending_forgets() == []
        assert all(r["id"] != cid for r in app.people.list_candidates())
        assert all(p.get("candidate_id") != cid for p in app.index.store.scroll())
        assert len(app.people.list_candidates()) == 2  # the other two lose nothing
    finally:
        app.close()
    left = grep_home(home, [NAME, EMAIL, cid])
    assert left == {}, f"killed at {point}: still on disk {left}"
