"""Forgetting for real: nothing of the candidate remains anywhere under the data home."""

from __future__ import annotations

import os
from pathlib import Path

from cvrag_desktop.app.assembly import App
from tests.support.fault_cvs import EMAIL, NAME, PHRASE, write_corpus


def grep_home(home: Path, needles: list[str]) -> dict[str, list[str]]:
    """Every file under ``home`` (WAL files, thread store, index, backups, logs) containing a needle."""
    found: dict[str, list[str]] = {}
    forms = {n: [n.lower().encode(), n.lower().encode("utf-16-le")] for n in needles}
    for root, _dirs, files in os.walk(home):
        for f in files:
            p = Path(root) / f
            data = p.read_bytes().lower()
            for n, fs in forms.items():
                if any(x in data for x in fs):
                    found.setdefault(n, []).append(str(p.relative_to(home)))
    return found


def _ingest(svc: App, folder: Path) -> str:
    report = svc.library.ingest([folder], use_llm=False, workers=1)
    assert report.ingested == 3, report
    ids = [r["id"] for r in svc.people.list_candidates() if r["name"] == NAME]
    assert ids, [r["name"] for r in svc.people.list_candidates()]
    return ids[0]


def test_forget_leaves_no_trace_in_the_data_home(tmp_path, _isolated_home):
    home = _isolated_home
    svc = App()
    cid = _ingest(svc, write_corpus(tmp_path / "in")[0].parent)
    svc.catalog.backup_now("test")  # a backup holding the candidate must be cleaned too
    # chat threads that name and quote the candidate, and one that does not
    quoting = svc.assistant.ask(f"What did {NAME} ({EMAIL}) do? '{PHRASE}'", use_llm=False)
    svc.assistant.ask(f"Tell me more about {NAME}", thread_id=quoting["thread_id"], use_llm=False)
    cites = svc.assistant.ask("Who knows Kafka?", use_llm=False)
    other = svc.assistant.ask("What does Tobiah Lindqvist do?", use_llm=False)
    before = grep_home(home, [NAME, EMAIL, PHRASE])
    assert before.get(NAME) and before.get(PHRASE), before
    n_before = len(svc.people.list_candidates())

    report = svc.people.delete_candidate(cid)
    removed = {t["thread_id"] for t in report["threads_removed"]}
    assert quoting["thread_id"] in removed
    assert not report["pending"]
    svc.close()

    after = grep_home(home, [NAME, EMAIL, PHRASE, cid])
    assert after == {}, f"still on disk after forgetting: {after}"
    svc = App()
    assert len(svc.people.list_candidates()) == n_before - 1
    assert svc.catalog.pending_forgets() == []
    assert all(cid != h["candidate_id"] for h in svc.search.search("Kafka ledger reconciliation", k=20))
    left = {t["thread_id"] for t in svc.assistant.threads()}
    assert quoting["thread_id"] not in left
    assert other["thread_id"] in left, "a thread about someone else must stay"
    print(f"\nforget: {len(removed)} thread(s) removed of 4 ({sorted(removed)}); kept {sorted(left)}; "
          f"cites={cites['thread_id'] in removed} other={other['thread_id'] in removed}")
    svc.close()


HOLD_INDEX = """
import sys
from pathlib import Path
from cvrag_desktop.index.edge.store import IndexStore
store = IndexStore(Path(sys.argv[1]))
print("held", flush=True)
sys.stdin.read()
store.close()
"""


def test_delete_while_another_process_holds_the_index(tmp_path, _isolated_home):
    import subprocess
    import sys

    svc = App()
    cid = _ingest(svc, write_corpus(tmp_path / "in")[0].parent)
    stored = Path(svc.people.get_candidate(cid)["stored_path"])
    n_before = len(svc.people.list_candidates())
    index_dir = svc.paths.index_dir
    svc.close()
    holder = subprocess.Popen([sys.executable, "-c", HOLD_INDEX, str(index_dir)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, env=os.environ.copy())
    try:
        assert holder.stdout.readline().strip() == "held"
        svc = App()
        report = svc.people.delete_candidate(cid)
        assert report["pending"] == ["index"], report
        assert "another CV RAG window or process" in report["pending_reason"]
        assert not stored.exists(), "the CV file must not stay in the library"
        assert svc.catalog.candidate(cid) is None
        assert len(svc.people.list_candidates()) == n_before - 1
        svc.close()
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)
    svc = App()  # next start finishes the journalled forget
    assert svc.catalog.pending_forgets() == []
    assert svc.resumed_forgets and not svc.resumed_forgets[0]["pending"]
    assert all(h["candidate_id"] != cid for h in svc.search.search("Kafka", k=50))
    assert len(svc.people.list_candidates()) == n_before - 1
    svc.close()


def test_forget_failed_imports(tmp_path, capsys):
    from cvrag_desktop.cli.entry import main

    folder = tmp_path / "in"
    write_corpus(folder)
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4\n garbage that is no pdf " * 20)
    svc = App()
    svc.library.ingest([folder], use_llm=False, workers=1)
    failed = svc.library.failed_files()
    assert len(failed) == 1
    kept = [Path(f["stored_path"]) for f in failed if f["stored_path"]]
    n_candidates = len(svc.people.list_candidates())
    svc.close()
    assert main(["forget", "--failed"]) == 0
    out = capsys.readouterr().out
    assert "forgot 1 failed import(s)" in out and "broken.pdf" in out
    svc = App()
    assert svc.library.failed_files() == []
    assert not any(p.exists() for p in kept)
    assert len(svc.people.list_candidates()) == n_candidates
    svc.close()


def test_interrupted_forget_is_resumed_at_next_start(tmp_path, _isolated_home, monkeypatch):
    """A crash after the catalog transaction (before threads and library) is finished at the next start."""
    import pytest

    from cvrag_desktop.catalog.compliance import forget as forget_mod

    svc = App()
    cid = _ingest(svc, write_corpus(tmp_path / "in")[0].parent)
    stored = Path(svc.people.get_candidate(cid)["stored_path"])
    svc.assistant.ask(f"What did {NAME} do?", use_llm=False)
    svc.close()

    def crash(*_a, **_k):
        raise KeyboardInterrupt  # the process dies mid-forget

    real_run = forget_mod.run_forget
    monkeypatch.setattr(forget_mod, "run_forget", crash)
    svc = App()
    with pytest.raises(KeyboardInterrupt):
        svc.people.delete_candidate(cid)
    assert svc.catalog.candidate(cid) is None and stored.exists()
    assert len(svc.catalog.pending_forgets()) == 1
    svc.close()
    monkeypatch.setattr(forget_mod, "run_forget", real_run)  # (not undo(): that would drop the test's home)
    svc = App()
    _ = svc.catalog  # opening resumes the journal
    assert svc.catalog.pending_forgets() == []
    assert not stored.exists()
    assert svc.resumed_forgets and svc.resumed_forgets[0]["threads_removed"]
    svc.close()
    assert grep_home(_isolated_home, [NAME, EMAIL, PHRASE]) == {}
