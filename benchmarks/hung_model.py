"""A hung language model during an import: 20 generated CVs with no model, then against a model that never answers.

Usage: python benchmarks/hung_model.py [--count 20] [--seed 11] [--mode never_answer|hang] [--repeats 1]

Generates ``--count`` factory CVs once (mixed locales and layouts), then imports them into a fresh
data home per run, each run its own process: once with the model pass off (``use_llm=False``), once
with the model pass on against the loopback Ollama stub of ``tests/support/ollama_stub.py``:

- ``never_answer`` (default): the stub lists its models (``/api/tags`` answers, so the import decides
  the model is up) and accepts every chat request without ever answering: a hung model runner;
- ``hang``: every request, the health probe included, is accepted and never answered.

The route's timeout is the shipped one (``litellm_config.yaml``: 120 s); the import caps it itself.
Prints a table: no-model seconds, hung-model seconds, their ratio, and how many chat requests reached
the hung stub (each one waited for a timeout). The acceptance of issue 35 item 9 is ratio <= 2.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, os, sys, tempfile, time
from pathlib import Path
os.environ["CVRAG_HOME"] = tempfile.mkdtemp(prefix="cvrag-hung-")
os.environ["CVRAG_DISABLE_OCR"] = "1"
mode = sys.argv[2]
stub = None
if mode != "off":
    from tests.support.ollama_stub import OllamaStub
    stub = OllamaStub().start()
    stub.mode = mode
    stub.loaded = list(stub.models)  # the issue's hung runner: Ollama lists its models (and /api/ps the loaded one)
    os.environ["CVRAG_LLM_URL"] = stub.url
else:
    os.environ["CVRAG_NO_LLM"] = "1"
from cvrag_desktop.app.assembly import App
from cvrag_desktop.llm.gateway import load_litellm
if stub is not None:
    load_litellm()  # a local import of seconds: not the model's time
files = sorted(Path(sys.argv[1]).glob("*.pdf"))
svc = App()
svc.index  # opened before the clock starts, as the app does at start
t0 = time.perf_counter()
report = svc.library.ingest(files, use_llm=stub is not None)
wall = time.perf_counter() - t0
calls = len(stub.chat_requests) if stub is not None else 0
print(json.dumps({"wall": wall, "ingested": report.ingested, "calls": calls, "note": report.llm_note}))
svc.close()
if stub is not None:
    stub.stop()
os._exit(0)  # a daemon thread may still wait on the hung socket
"""


def one_run(cvs: Path, mode: str) -> dict:
    """Import ``cvs`` in a fresh process with the model pass ``mode`` ("off", "never_answer", "hang")."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("CVRAG_NO_LLM", None)
    out = subprocess.run([sys.executable, "-c", CHILD, str(cvs), mode], cwd=str(ROOT), env=env,
                         capture_output=True, text=True, timeout=3600)
    if out.returncode != 0:
        raise SystemExit(f"run failed ({mode}):\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    """Generate the CVs, run both imports, print the table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--mode", choices=("never_answer", "hang"), default="never_answer")
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--cvs", type=Path, default=None, help="reuse (or create) the CV folder here")
    args = ap.parse_args()
    cvs = args.cvs or Path(tempfile.mkdtemp(prefix="cvrag-hung-cvs-"))
    if not any(cvs.glob("*.pdf")):
        sys.path.insert(0, str(ROOT))
        from cvrag_desktop.factory.pipeline import generate_batch

        generate_batch(args.count, args.seed, cvs, locale="mixed", layout="mixed")
    n = len(list(cvs.glob("*.pdf")))
    print(f"{n} generated CVs in {cvs}; hung model mode: {args.mode}")
    print(f"{'run':>4}{'no-model s':>12}{'hung-model s':>14}{'ratio':>8}{'calls':>7}")
    ratios = []
    for i in range(args.repeats):
        off = one_run(cvs, "off")
        hung = one_run(cvs, args.mode)
        ratio = hung["wall"] / off["wall"]
        ratios.append(ratio)
        print(f"{i + 1:>4}{off['wall']:>12.1f}{hung['wall']:>14.1f}{ratio:>8.2f}{hung['calls']:>7}", flush=True)
        if hung["note"]:
            print(f"     import note: {hung['note']}")
    print(f"median ratio hung / no-model: {statistics.median(ratios):.2f} (acceptance: <= 2)")


if __name__ == "__main__":
    main()
