"""Cold start of the desktop app with a large library: time to an interactive window, idle memory.

Usage (after ``make package``)::

    python benchmarks/cold_start.py [--app dist/cvrag-desktop/cvrag-desktop] [--count 1000] [--runs 3]
                                    [--home build/bench/home] [--idle 10] [--drop-caches]

1. Prepares (once, reused afterwards) a data home with ``--count`` synthetic CVs: ``generate
   --no-llm`` then ``ingest --no-llm``, niced, through the app's own ``--cli`` (the frozen
   build's code writes the catalog and index it then opens).
2. Starts the app ``--runs`` times on Qt's offscreen platform with ``CVRAG_STARTUP_PROBE`` set:
   the app prints a JSON line when the main window is shown with the candidate list filled and
   the event loop running ("interactive"), one when start-up warm-up (index, models, assistant,
   LLM probe) has finished, and one after ``--idle`` seconds of idling, then quits.
3. Prints a table: wall time from process start to interactive and to warm, and the resident
   memory of the app's process tree when interactive and when idle.

``--drop-caches`` (root on Linux) empties the page cache before each run, for a truly cold
disk; without it the runs after the first measure a warm disk cache. The target is an
interactive window within 3 s on 2 cores. Numbers on a shared machine are noisy: look at the
median and say what else was running.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_APP = ROOT / "dist" / "cvrag-desktop" / "cvrag-desktop"


def tree_rss_mb(pid: int) -> float | None:
    """Resident memory of a process and its children in MB (psutil), None when it is gone."""
    try:
        import psutil
    except ImportError:
        return None
    try:
        proc = psutil.Process(pid)
        procs = [proc, *proc.children(recursive=True)]
        total = 0
        for p in procs:
            with contextlib.suppress(psutil.Error):
                total += p.memory_info().rss
        return total / 1e6
    except psutil.Error:
        return None


def tree_cpu_s(pid: int) -> float | None:
    """CPU seconds (user + system) used so far by a process and its children: unlike wall time,
    this hardly changes when other programs share the cores."""
    try:
        import psutil
    except ImportError:
        return None
    try:
        proc = psutil.Process(pid)
        total = 0.0
        for p in [proc, *proc.children(recursive=True)]:
            with contextlib.suppress(psutil.Error):
                t = p.cpu_times()
                total += t.user + t.system
        return total
    except psutil.Error:
        return None


def base_env(home: Path) -> dict[str, str]:
    """The app's environment: the benchmark home, offscreen Qt, a dead LLM endpoint."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CVRAG_")}
    env.update({"CVRAG_HOME": str(home), "QT_QPA_PLATFORM": "offscreen", "CVRAG_LLM_URL": "http://127.0.0.1:9"})
    return env


def cli(app: Path, *args: str) -> list[str]:
    """The ``cvrag`` command line of the frozen app (``--cli``), or of a source install."""
    if app.name.startswith("cvrag-desktop"):
        return [str(app), "--cli", *args]
    return [str(app), *args]


def prepare(app: Path, home: Path, count: int) -> None:
    """A home with ``count`` ingested synthetic CVs (kept between runs of this script)."""
    marker = home / f"prepared-{count}.json"
    if marker.is_file():
        print(f"reusing {home} ({marker.read_text(encoding='utf-8').strip()})")
        return
    env = base_env(home)
    cvs = home.parent / f"cvs-{count}"
    t0 = time.perf_counter()
    if len(list(cvs.glob("*.pdf"))) < count:
        subprocess.run(["nice", "-n", "5", *cli(app, "generate", "--count", str(count), "--seed", "1", "--no-llm",
                                                  "--out", str(cvs))], env=env, check=True)
    t_gen = time.perf_counter() - t0
    t0 = time.perf_counter()
    out = subprocess.run(["nice", "-n", "5", *cli(app, "ingest", str(cvs), "--no-llm", "--json")], env=env,
                         check=True, capture_output=True, text=True).stdout
    report = json.loads(out)
    facts = {"generate_s": round(t_gen, 1), "ingest_s": round(time.perf_counter() - t0, 1),
             "ingested": report["ingested"], "failed": len(report["failed"])}
    marker.write_text(json.dumps(facts) + "\n", encoding="utf-8")
    print(f"prepared {home}: {facts}")


def drop_caches() -> bool:
    """Empty the page cache (root on Linux); False when not allowed."""
    try:
        os.sync()
        Path("/proc/sys/vm/drop_caches").write_text("3\n")
        return True
    except OSError:
        return False


def one_run(app: Path, home: Path, idle: float, timeout: float) -> dict:
    """Start the app once; returns seconds to interactive/warm and memory (MB)."""
    env = base_env(home) | {"CVRAG_STARTUP_PROBE": f"1,{idle}"}
    t0 = time.perf_counter()
    proc = subprocess.Popen([str(app)], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    result: dict = {}
    deadline = t0 + timeout
    try:
        for line in proc.stdout:
            now = time.perf_counter()
            if not line.startswith("{"):
                continue
            event = json.loads(line)
            name = event["event"]
            result[f"{name}_s"] = round(now - t0, 2)
            result[f"{name}_rss_mb"] = tree_rss_mb(proc.pid) or event.get("rss_mb")
            result[f"{name}_cpu_s"] = tree_cpu_s(proc.pid)
            if name == "interactive":
                result["rows"] = event["rows"]
            if name == "warm":
                result["warm_timings_ms"] = event.get("timings")
            if now > deadline:
                break
        proc.wait(timeout=max(1.0, deadline - time.perf_counter()))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return result


def main() -> int:
    """Prepare the library, run the app several times, print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--app", type=Path, default=DEFAULT_APP)
    ap.add_argument("--home", type=Path, default=ROOT / "build" / "bench" / "home")
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--idle", type=float, default=10.0, help="seconds of idling after warm-up before memory is read")
    ap.add_argument("--timeout", type=float, default=180.0)
    ap.add_argument("--drop-caches", action="store_true")
    args = ap.parse_args()
    if not args.app.exists():
        print(f"{args.app} not found: run `make package` first (or pass --app .venv/bin/cvrag-desktop)")
        return 2
    args.home.mkdir(parents=True, exist_ok=True)
    prepare(args.app, args.home, args.count)
    rows = []
    for i in range(args.runs):
        cold = drop_caches() if args.drop_caches else False
        r = one_run(args.app, args.home, args.idle, args.timeout)
        r["run"], r["page_cache"] = i + 1, "dropped" if cold else ("first" if i == 0 else "warm")
        rows.append(r)
        print(json.dumps(r))
    print(f"\ncold start of {args.app} with {args.count} CVs ({os.cpu_count()} cores, load {os.getloadavg()[0]:.1f})")
    print(f"{'run':>3} {'cache':>8} {'interactive s':>14} {'CPU s':>6} {'rows':>6} {'warm s':>7} {'CPU s':>6} "
          f"{'RSS@interactive MB':>19} {'idle RSS MB':>12}")
    nan = float("nan")
    for r in rows:
        print(f"{r['run']:>3} {r['page_cache']:>8} {r.get('interactive_s', nan):>14.2f} "
              f"{r.get('interactive_cpu_s') or nan:>6.2f} {r.get('rows', 0):>6} {r.get('warm_s', nan):>7.2f} "
              f"{r.get('warm_cpu_s') or nan:>6.2f} {r.get('interactive_rss_mb') or 0:>19.0f} "
              f"{r.get('idle_rss_mb') or 0:>12.0f}")
    done = [r["interactive_s"] for r in rows if "interactive_s" in r]
    if done:
        print(f"median time to an interactive window: {statistics.median(done):.2f} s (target <= 3 s)")
    return 0 if len(done) == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
