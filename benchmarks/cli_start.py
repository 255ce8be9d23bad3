"""Whole-process time of ``cvrag search`` and ``cvrag ask --no-llm`` over a 1,000-CV library.

Usage::

    python benchmarks/cli_start.py [--home build/bench/cli_start/home] [--count 1000] [--runs 7]
                                   [--compare /tmp/base-worktree] [--label-compare before]

1. Prepares (once, reused afterwards; the path is printed) a data home with ``--count``
   synthetic CVs: ``cvrag generate --count N --seed 7 --no-llm`` then ``cvrag ingest --no-llm``.
2. Runs each command of :data:`COMMANDS` ``--runs`` times as a fresh process
   (``python -m cvrag_desktop.cli …``; one warm-up run first, not counted) and prints the
   wall-time p50/p95 and the CPU seconds (user + system) of the child per command.
3. With ``--compare DIR`` (a ``git worktree`` of an older commit), the same commands are run
   with that tree's code first on ``sys.path`` (``PYTHONPATH``), interleaved run by run with
   this tree's, and the table shows both and the ratio: on a shared machine only numbers taken
   back to back are comparable. The other tree runs on a copy of the home (``<home>-compare``,
   made once): each version's closes rewrite the index files, which would otherwise make the
   other one's start-up check (``index/edge/sync_stamp.py``) fail every time.

The goal is p50 ≤ 0.8 s per command on 2 cores. Metadata-only commands should never load the
embedding model (the "loads model" column says whether fastembed was imported).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

COMMANDS: list[tuple[str, str, list[str]]] = [
    ("metadata", "search --language German", ["search", "--language", "German"]),
    ("metadata", "search --skill Python --min-years 5", ["search", "--skill", "Python", "--min-years", "5"]),
    ("metadata", "ask how many speak German", ["ask", "how many candidates speak German?", "--no-llm"]),
    ("metadata", "ask how many have a master's degree",
     ["ask", "how many candidates have a master's degree?", "--no-llm"]),
    ("hybrid", "search \"python developer kafka\"", ["search", "python developer kafka"]),
    ("hybrid", "ask who has led a data team", ["ask", "who has led a data engineering team?", "--no-llm"]),
]

# run inside the child: the CLI's own entry point, then report which heavy modules were imported
_CHILD = """
import sys, json, contextlib, io
try:
    from cvrag_desktop.cli.entry import main
except ImportError:  # a tree from before the cli package (--compare)
    from cvrag_desktop.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = main(sys.argv[1:])
heavy = [m for m in ("fastembed", "onnxruntime", "litellm", "langgraph", "qdrant_edge") if m in sys.modules]
print(json.dumps({"code": code, "heavy": heavy, "out": out.getvalue()[:300]}))
"""


def env_for(home: Path, code: Path) -> dict[str, str]:
    """The child's environment: the benchmark home, a dead LLM endpoint, ``code`` first on sys.path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CVRAG_")}
    env.update({"CVRAG_HOME": str(home), "CVRAG_LLM_URL": "http://127.0.0.1:9", "PYTHONPATH": str(code)})
    return env


def prepare(home: Path, count: int) -> None:
    """A home with ``count`` ingested synthetic CVs (kept between runs of this script)."""
    marker = home / f"prepared-{count}.json"
    if marker.is_file():
        print(f"reusing the library at {home} ({marker.read_text(encoding='utf-8').strip()})")
        return
    home.mkdir(parents=True, exist_ok=True)
    env = env_for(home, ROOT) | {"CVRAG_DISABLE_OCR": "1"}
    cvs = home.parent / f"cvs-{count}"
    cli = [sys.executable, "-m", "cvrag_desktop.cli"]
    t0 = time.perf_counter()
    if len(list(cvs.glob("*.pdf"))) < count:
        subprocess.run(["nice", "-n", "5", *cli, "generate", "--count", str(count), "--seed", "7", "--no-llm",
                        "--out", str(cvs)], env=env, check=True, stdout=subprocess.DEVNULL)
    t_gen = time.perf_counter() - t0
    t0 = time.perf_counter()
    out = subprocess.run(["nice", "-n", "5", *cli, "ingest", str(cvs), "--no-llm", "--json"], env=env,
                         check=True, capture_output=True, text=True).stdout
    report = json.loads(out)
    facts = {"generate_s": round(t_gen, 1), "ingest_s": round(time.perf_counter() - t0, 1),
             "ingested": report["ingested"], "failed": len(report["failed"])}
    marker.write_text(json.dumps(facts) + "\n", encoding="utf-8")
    print(f"prepared the library at {home}: {facts}")


def run_once(home: Path, code: Path, argv: list[str]) -> tuple[float, float, dict]:
    """Wall seconds, child CPU seconds and the child's report for one whole ``cvrag`` process."""
    before = os.times()
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _CHILD, *argv], env=env_for(home, code), cwd=code,
                          capture_output=True, text=True)  # cwd: ``-c`` puts it first on sys.path
    wall = time.perf_counter() - t0
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    try:
        report = json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        raise SystemExit(f"{' '.join(argv)} failed under {code}:\n{proc.stderr[-2000:]}") from None
    return wall, cpu, report


def p95(values: list[float]) -> float:
    """The 95th percentile (nearest rank) of a small sample."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> None:
    """Prepare the library, time every command, print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", default=str(ROOT / "build" / "bench" / "cli_start" / "home"))
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--compare", help="another source tree (git worktree) to time back to back with this one")
    ap.add_argument("--label-compare", default="before")
    args = ap.parse_args()
    home = Path(args.home).resolve()
    prepare(home, args.count)
    trees = [("after" if args.compare else "this tree", ROOT, home)]
    if args.compare:
        other = home.with_name(home.name + "-compare")
        if not (other / f"prepared-{args.count}.json").is_file():
            shutil.rmtree(other, ignore_errors=True)
            shutil.copytree(home, other)
        print(f"{args.label_compare}: {Path(args.compare).resolve()} on a copy of the library at {other}")
        trees.insert(0, (args.label_compare, Path(args.compare).resolve(), other))
    print(f"library: {home} ({args.count} CVs); {args.runs} runs per command after one warm-up; "
          f"load average {os.getloadavg()[0]:.2f}")
    rows = []
    for kind, label, argv in COMMANDS:
        times: dict[str, list[float]] = {name: [] for name, *_ in trees}
        cpus: dict[str, list[float]] = {name: [] for name, *_ in trees}
        heavy: dict[str, list[str]] = {}
        for name, code, where in trees:
            _, _, report = run_once(where, code, argv)  # warm-up (disk cache, .pyc)
            heavy[name] = report["heavy"]
        for _ in range(args.runs):
            for name, code, where in trees:
                wall, cpu, _ = run_once(where, code, argv)
                times[name].append(wall)
                cpus[name].append(cpu)
        rows.append((kind, label, times, cpus, heavy))
    head = f"{'kind':<9}{'command':<40}"
    for name, *_ in trees:
        head += f"{name + ' p50':>14}{'p95':>7}{'cpu':>6}  {'heavy modules':<34}"
    if args.compare:
        head += f"{'p50 ratio':>10}"
    print(head)
    for kind, label, times, cpus, heavy in rows:
        line = f"{kind:<9}{label[:39]:<40}"
        for name, *_ in trees:
            line += (f"{statistics.median(times[name]):>14.2f}{p95(times[name]):>7.2f}"
                     f"{statistics.median(cpus[name]):>6.2f}  {','.join(heavy[name]) or '-':<34}")
        if args.compare:
            a, b = (statistics.median(times[name]) for name, *_ in trees)
            line += f"{b / a:>10.2f}"
        print(line)
    print(f"load average at the end {os.getloadavg()[0]:.2f} (2 cores shared: compare columns, not runs)")


if __name__ == "__main__":
    main()
