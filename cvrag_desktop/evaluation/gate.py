"""The regression gate (issue 36, item 7): the same evaluations on a base ref and on this tree, side by side.

``python -m cvrag_desktop.evaluation.gate --base main [--data ../shared/data] [--zoo DIR] [--workers N]
[--include-held-out] [--tolerance 0]`` (``make gate BASE=main``) checks the base ref out into a
temporary git worktree (``git worktree add --detach``; removed afterwards, also on an error or Ctrl-C),
then runs ``cvrag eval --json`` in a subprocess per tree, with ``PYTHONPATH`` at that tree and the same
interpreter: ``--dataset`` on each labelled real folder (``real-cvs``, ``real-cvs-extra``,
``real-cvs-inbox`` under ``--data``) and ``--zoo DIR`` once (the open families' overall and, with
``--include-held-out``, the held-out families as their own block).

It prints one table, ``set | field | before | after | delta``, and marks every drop. Exit 1 when a
real folder's field (its rate or its precision) or the zoo's open overall (a field's precision or
recall) drops by more than the tolerance, or when this tree's evaluation fails; 0 otherwise; 2 on a
usage error (an unknown ref, not a git repository, a bad option). The held-out block is printed, never
gated: the bench is read once, at the end. A missing data folder or zoo is reported and skipped.
Nothing is cached: every run evaluates both trees afresh, each in a scratch ``CVRAG_HOME``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

REAL_FOLDERS = ("real-cvs", "real-cvs-extra", "real-cvs-inbox")
REAL_FIELDS = ("name", "email", "current_title", "employers", "degrees", "skills", "languages", "sections", "years")
ZOO_FIELDS = ("name", "title", "employers", "degrees", "current_title", "email", "phone", "institutions",
              "skills", "languages")
ZOO_OPEN, ZOO_HELD = "zoo (open)", "zoo (held-out)"
REPO = Path(__file__).resolve().parents[2]

# Runs ``cvrag eval <args> --json`` with the code of ``tree``; returns the parsed JSON (raises GateError).
Runner = Callable[[Path, list[str]], dict]


class GateError(Exception):
    """A usage error (exit 2) or an evaluation that failed; the message is for the user."""


@dataclass(frozen=True)
class Row:
    """One measured number before and after; ``gated`` rows fail the gate when they drop."""

    set: str
    field: str
    before: float | None
    after: float | None
    gated: bool

    def delta(self) -> float | None:
        """``after - before`` (None when either side is missing)."""
        return None if self.before is None or self.after is None else self.after - self.before

    def drops(self, tolerance: float) -> bool:
        """A gated number lower after than before by more than ``tolerance`` (or gone)."""
        if not self.gated or self.before is None:
            return False
        return self.after is None or self.after < self.before - tolerance - 1e-9


# ---- git ------------------------------------------------------------------------------------------------------
def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise GateError(f"git {' '.join(args)}: {done.stderr.strip() or 'failed'}")
    return done.stdout.strip()


def resolve_ref(repo: Path, ref: str) -> str:
    """The commit ``ref`` names in ``repo`` (a usage error when it names none)."""
    try:
        _git(repo, "rev-parse", "--git-dir")
    except GateError:
        raise GateError(f"{repo} is not a git repository") from None
    try:
        return _git(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    except GateError:
        raise GateError(f"--base {ref!r} names no commit in {repo}") from None


@contextlib.contextmanager
def base_worktree(repo: Path, commit: str) -> Iterator[Path]:
    """``commit`` checked out (detached) in a temporary worktree, removed on leaving, whatever happened."""
    parent = Path(tempfile.mkdtemp(prefix="cvrag-gate-"))
    tree = parent / "base"
    try:
        _git(repo, "worktree", "add", "--detach", "--quiet", str(tree), commit)
        yield tree
    finally:
        with contextlib.suppress(GateError):
            _git(repo, "worktree", "remove", "--force", str(tree))
        shutil.rmtree(parent, ignore_errors=True)
        with contextlib.suppress(GateError):
            _git(repo, "worktree", "prune")


# ---- running the evaluations -----------------------------------------------------------------------------------
def subprocess_runner(tree: Path, args: list[str]) -> dict:
    """``python -m cvrag_desktop.cli eval <args> --json`` with ``PYTHONPATH=tree``, in a scratch home."""
    with tempfile.TemporaryDirectory(prefix="cvrag-gate-home-") as home:
        env = {**os.environ, "PYTHONPATH": str(tree), "CVRAG_HOME": home, "PYTHONDONTWRITEBYTECODE": "1"}
        cmd = [sys.executable, "-m", "cvrag_desktop.cli", "eval", *args, "--json"]
        done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise GateError(f"`cvrag eval {' '.join(args)}` failed in {tree} (exit {done.returncode}): {tail}")
    try:
        return json.loads(done.stdout)
    except ValueError:
        raise GateError(f"`cvrag eval {' '.join(args)}` in {tree} printed no JSON") from None


def real_numbers(report: dict) -> dict[str, float | None]:
    """A real folder's numbers from ``cvrag eval --dataset --json``: each field's rate and precision."""
    rates, fields = report.get("rates") or {}, report.get("fields") or {}
    out: dict[str, float | None] = {f: rates.get(f) for f in REAL_FIELDS if f in rates}
    out |= {f"{f} P": (fields.get(f) or {}).get("precision") for f in REAL_FIELDS if f in fields}
    return out


def zoo_numbers(report: dict, key: str) -> dict[str, float | None]:
    """The zoo's precision and recall per field from ``cvrag eval --zoo --json`` (``overall`` or
    ``overall_held_out``), and the share of unmarked values right."""
    overall = report.get(key) or {}
    out: dict[str, float | None] = {}
    for f in ZOO_FIELDS:
        if f in overall:
            out[f"{f} P"], out[f"{f} R"] = overall[f].get("precision"), overall[f].get("recall")
    unmarked = report.get("unmarked") or {}
    if overall and unmarked.get("values"):
        out["unmarked right"] = unmarked["right"] / unmarked["values"]
    return out


@dataclass(frozen=True)
class Plan:
    """What to evaluate: real folders (set name -> folder) and the zoo (or None)."""

    real: dict[str, Path]
    zoo: Path | None
    workers: int = 1
    held_out: bool = False


def evaluate(tree: Path, plan: Plan, runner: Runner) -> dict[str, dict[str, float | None] | str]:
    """Every set of ``plan`` evaluated with ``tree``'s code: set -> numbers, or the failure's message."""
    out: dict[str, dict[str, float | None] | str] = {}
    for name, folder in plan.real.items():
        try:
            out[name] = real_numbers(runner(tree, ["--dataset", str(folder)]))
        except GateError as exc:
            out[name] = str(exc)
    if plan.zoo is not None:
        args = ["--zoo", str(plan.zoo), "--workers", str(plan.workers)]
        try:
            report = runner(tree, args + (["--include-held-out"] if plan.held_out else []))
            out[ZOO_OPEN] = zoo_numbers(report, "overall")
            if plan.held_out:
                out[ZOO_HELD] = zoo_numbers(report, "overall_held_out")
        except GateError as exc:
            out[ZOO_OPEN] = str(exc)
    return out


def compare(before: dict, after: dict) -> tuple[list[Row], list[str]]:
    """Rows for every number either side measured, and the failures (``side set: message``)."""
    rows, failures = [], []
    for name in dict.fromkeys([*before, *after]):
        b, a = before.get(name, {}), after.get(name, {})
        for side, got in (("before", b), ("after", a)):
            if isinstance(got, str):
                failures.append(f"{side} {name}: {got}")
        b, a = b if isinstance(b, dict) else {}, a if isinstance(a, dict) else {}
        for f in dict.fromkeys([*b, *a]):
            gated = name != ZOO_HELD and f != "unmarked right"
            rows.append(Row(name, f, b.get(f), a.get(f), gated))
    return rows, failures


def table(rows: list[Row], tolerance: float) -> str:
    """The printable table: set | field | before | after | delta, drops marked."""
    def num(x: float | None) -> str:
        return "-" if x is None else f"{x:.4f}"

    width = max([len(r.set) for r in rows] + [16])
    out = [f"{'set':<{width}} {'field':<18}{'before':>9}{'after':>9}{'delta':>9}",
           "-" * (width + 46)]
    for r in rows:
        d = r.delta()
        mark = "  DROP" if r.drops(tolerance) else ("" if r.gated else "  (not gated)")
        out.append(f"{r.set:<{width}} {r.field:<18}{num(r.before):>9}{num(r.after):>9}"
                   f"{'-' if d is None else f'{d:+.4f}':>9}{mark}")
    return "\n".join(out)


def _interrupt_on_term() -> None:
    """SIGTERM ends the gate like Ctrl-C, so the temporary worktree is still removed."""
    def handler(_sig, _frame):
        raise KeyboardInterrupt
    with contextlib.suppress(ValueError):  # not the main thread
        signal.signal(signal.SIGTERM, handler)


def plan_from(args: argparse.Namespace) -> tuple[Plan, list[str]]:
    """The sets to evaluate and the notes on what is missing (reported and skipped)."""
    notes: list[str] = []
    data = Path(args.data).resolve()
    real = {}
    for name in REAL_FOLDERS:
        folder = data / name
        if (folder / "labels.json").is_file():
            real[name] = folder
        else:
            notes.append(f"skipped {name}: {folder} has no labels.json")
    zoo = Path(args.zoo).resolve() if args.zoo else None
    if zoo is not None and not (zoo / "manifest.json").is_file():
        notes.append(f"skipped the zoo: {zoo} is not a built zoo (no manifest.json)")
        zoo = None
    return Plan(real, zoo, args.workers, args.include_held_out), notes


def run_gate(args: argparse.Namespace, runner: Runner | None = None, repo: Path | None = None,
             out: Callable[[str], None] = print) -> int:
    """Evaluate the base ref and this tree, print the table; 0 kept, 1 a drop or a failure (a usage
    error raises :class:`GateError`)."""
    runner, repo = runner or subprocess_runner, repo or REPO
    if args.tolerance < 0 or args.workers < 1:
        raise GateError("--tolerance wants 0 or more and --workers 1 or more")
    commit = resolve_ref(repo, args.base)
    plan, notes = plan_from(args)
    for note in notes:
        out(note)
    if not plan.real and plan.zoo is None:
        out("nothing to evaluate: no labelled real folder and no zoo")
        return 0
    started = time.monotonic()
    with base_worktree(repo, commit) as base:
        before = evaluate(base, plan, runner)
    after = evaluate(repo, plan, runner)
    rows, failures = compare(before, after)
    out(f"regression gate: base {args.base} ({commit[:10]}) -> this tree ({repo}); tolerance {args.tolerance}")
    out(table(rows, args.tolerance))
    for failure in failures:
        out(f"FAILED {failure}")
    drops = [r for r in rows if r.drops(args.tolerance)]
    broken = [f for f in failures if f.startswith("after ")]
    verdict = "NOT KEPT" if drops or broken else "kept"
    out(f"{len(drops)} drop(s), {len(broken)} failed evaluation(s) of this tree: {verdict} "
        f"({time.monotonic() - started:.0f} s)")
    return 1 if drops or broken else 0


def parser() -> argparse.ArgumentParser:
    """The command line of ``python -m cvrag_desktop.evaluation.gate``."""
    p = argparse.ArgumentParser(prog="python -m cvrag_desktop.evaluation.gate",
                                description="before/after on the labelled real folders and the layout zoo")
    p.add_argument("--base", required=True, help="git ref to compare against (e.g. main, HEAD~1)")
    p.add_argument("--data", default="../shared/data", help="folder holding real-cvs, real-cvs-extra, real-cvs-inbox")
    p.add_argument("--zoo", default=None, help="a built layout zoo (skipped when not given or not built)")
    p.add_argument("--workers", type=int, default=1, help="processes reading the zoo's documents")
    p.add_argument("--include-held-out", action="store_true", help="also the held-out families (printed, not gated)")
    p.add_argument("--tolerance", type=float, default=0.0, help="a drop up to this much is not a drop (default 0)")
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point: parse, run, map errors to exit codes (no traceback)."""
    args = parser().parse_args(argv)
    _interrupt_on_term()
    try:
        return run_gate(args)
    except GateError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted: the temporary worktree was removed", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
