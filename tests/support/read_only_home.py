"""A data home nobody may write (we are root: commands run as ``nobody`` through ``setpriv``).

:func:`build_home` fills a home (three invented CVs, two of them merged into one person, a
saved job match, a conversation, a set-aside copy), :func:`lock_down` makes the whole tree
readable and not writable by ``nobody``, and :func:`run_as_nobody` runs a list of ``cvrag``
command lines in one ``nobody`` process (:data:`DRIVER`), returning for each its exit code,
stdout, stderr and the digest of every file of the home after it ran.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from tests.support.fault_cvs import write_corpus

REPO = Path(__file__).resolve().parents[2]
JD = "Backend engineer. Must have: Python, Kafka. 3+ years."


def tree_digest(home: Path) -> dict[str, str]:
    """Every file and folder under ``home``: relative path -> SHA-256 of its bytes ("dir" for a folder)."""
    out = {}
    for p in sorted(home.rglob("*")):
        rel = str(p.relative_to(home))
        out[rel] = "dir" if p.is_dir() else hashlib.sha256(p.read_bytes()).hexdigest()
    return out


DRIVER = r"""
import contextlib, io, json, sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from cvrag_desktop.cli.entry import main
from tests.support.read_only_home import tree_digest

home, runs = Path(sys.argv[2]), json.loads(sys.stdin.read())
results = []
for argv in runs:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
    results.append({"argv": argv, "code": code, "out": out.getvalue(), "err": err.getvalue(),
                    "digest": tree_digest(home)})
print(json.dumps(results))
"""


def build_home(base: Path) -> dict:
    """A home at ``base/home`` with CVs, a merged person, a saved match, a thread and a leftover; returns ids."""
    from cvrag_desktop.app.assembly import App
    from cvrag_desktop.cli.entry import main

    folder = base / "in"
    write_corpus(folder)
    (base / "jd.txt").write_text(JD, encoding="utf-8")
    svc = App()
    try:
        assert svc.library.ingest([folder], use_llm=False, workers=1).ingested == 3
        by_name = {r["name"]: r["id"] for r in svc.people.list_candidates()}
        ids = {"target": by_name["Quillon Verbrugge"], "other": by_name["Maribel Ostrander"],
               "third": by_name["Tobiah Lindqvist"]}
        svc.people.merge_people([ids["other"], ids["third"]])
        counts = svc.catalog.counts()
        data_dir = svc.paths.data_dir
    finally:
        svc.close()
    assert main(["match", "--jd", str(base / "jd.txt"), "--no-llm", "--save"]) == 0
    asked = subprocess.run([sys.executable, "-m", "cvrag_desktop.cli", "ask", "Who knows Kafka?", "--no-llm",
                            "--json"], capture_output=True, text=True, env=os.environ.copy(), cwd=str(REPO),
                           timeout=300, check=True)
    ids["thread"] = json.loads(asked.stdout)["thread_id"]
    stamp = time.strftime("%Y%m%d-%H%M%S")  # a set-aside copy (so that --purge-leftovers has one to refuse)
    shutil.copyfile(data_dir / "threads.sqlite3", data_dir / f"threads.damaged-{stamp}.sqlite3")
    return {**ids, "counts": counts, "folder": str(folder), "jd": str(base / "jd.txt")}


def lock_down(base: Path, writable: list[Path]) -> None:
    """Everything under ``base`` readable, not writable, by nobody; the ``writable`` folders open to all."""
    for p in [base, *base.rglob("*")]:
        p.chmod(0o755 if p.is_dir() else 0o644)
    for w in writable:
        w.mkdir(parents=True, exist_ok=True)
        w.chmod(0o777)


def run_as_nobody(base: Path, runs: list[list[str]]) -> list[dict]:
    """Run ``cvrag`` command lines one after the other in one process as nobody (CVRAG_HOME = base/home)."""
    home = base / "home"
    env = {**os.environ, "CVRAG_HOME": str(home), "HOME": str(base), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable, "-c",
                           DRIVER, str(REPO), str(home)], input=json.dumps(runs), capture_output=True, text=True,
                          env=env, cwd=str(REPO), timeout=1800)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)
