"""``cvrag``: the headless command line (JSON output with ``--json`` for scripts).

Every command is a thin call into the application layer (:mod:`cvrag_desktop.app`), the
same one the desktop application uses.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
from pathlib import Path

from cvrag_desktop.app.assembly import App
from cvrag_desktop.app.session import take_notes, typed_error
from cvrag_desktop.cli import assistant, compliance, explain, search
from cvrag_desktop.cli.evaluation import cmd_eval
from cvrag_desktop.cli.library import (
    cmd_demo,
    cmd_diagnostics,
    cmd_doctor,
    cmd_forget,
    cmd_generate,
    cmd_ingest,
)
from cvrag_desktop.cli.output import SafeStream, _print_json, safe
from cvrag_desktop.cli.people import cmd_candidates, cmd_export, cmd_people, cmd_screen
from cvrag_desktop.errors import CvragError


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for tests and shell completion)."""
    p = argparse.ArgumentParser(prog="cvrag", description="Offline CV parsing and search.")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("ingest", help="import CV files and folders")
    s.add_argument("paths", nargs="+")
    s.add_argument("--no-llm", action="store_true", help="skip the optional LLM pass")
    s.add_argument("--workers", type=int, default=None)
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_ingest)
    s = sub.add_parser("candidates", help="list, show or delete candidates")
    s.add_argument("action", choices=["list", "show", "delete"])
    s.add_argument("id", nargs="?")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_candidates)
    s = sub.add_parser("people", help="people (several CVs of one person count once): list, show, merge, split, forget",
                       description="list | show ID | merge ID ID... | split ID | forget ID | forget-document ID | "
                                   "export-subject ID --out FILE.zip. "
                                   "A person's id is its newest document's id; any of its document ids names it too.")
    s.add_argument("action", nargs="?", default="list",
                   choices=["list", "show", "merge", "split", "forget", "forget-document", "export-subject"])
    s.add_argument("ids", nargs="*")
    s.add_argument("--out", help="with export-subject: the zip to write (everything held about the person)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_people)
    s = sub.add_parser("screen", help="show or set people's screening: status, rating, tags, note",
                       description="With no option: show the state. Statuses: new, screening, interview, offer, "
                                   "hired, rejected. Any document id of a person names the person.")
    s.add_argument("ids", nargs="+")
    s.add_argument("--status")
    s.add_argument("--rating", help="1-5, or 0 to clear")
    s.add_argument("--tag", action="append", help="add a tag (repeatable)")
    s.add_argument("--untag", action="append", help="remove a tag (repeatable)")
    s.add_argument("--note", help="the note on the person (replaces it; '' clears it)")
    s.add_argument("--reason", help="with --status: why (optional; a preset such as requirements_not_met, "
                                    "withdrew, position_filled, no_response, better_fit_elsewhere, or your words)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_screen)
    s = sub.add_parser("doctor", help="show data paths, models and counts; repair the catalog")
    s.add_argument("--rebuild-catalog", action="store_true",
                   help="rebuild a missing/empty/damaged catalog from the library (the damaged file is kept)")
    s.add_argument("--backup", action="store_true", help="write a catalog backup now (last 5 are kept)")
    s.add_argument("--purge-leftovers", action="store_true",
                   help="remove now the copies repairs set aside (damaged catalog, conversations, index shard)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_doctor)
    s = sub.add_parser("diagnostics", help="write a zip of versions, settings and logs (no CV text) for support")
    s.add_argument("--out", required=True, help="the zip file to write")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_diagnostics)
    s = sub.add_parser("export", help="write every candidate to a CSV file (--blind hides identities)")
    s.add_argument("out", help="the CSV file to write")
    s.add_argument("--blind", action="store_true", help="blind screening: Candidate 7F3A, no contacts or location")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_export)
    s = sub.add_parser("forget", help="forget failed imports (catalog rows and library copies)")
    s.add_argument("--failed", action="store_true", help="every file whose import failed")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_forget)
    s = sub.add_parser("eval", help="measure extraction against labels.json or generated ground truth")
    s.add_argument("--dataset", action="append", help="folder with pdf/ and labels.json (repeat with --folds)")
    s.add_argument("--folds", choices=["source"],
                   help="leave-one-source-out over every --dataset folder (per-fold precision/recall)")
    s.add_argument("--model", choices=["rules", "learned", "both", "shipped"], default=None,
                   help="with --folds: the product as shipped (rules, the default), the learned line roles "
                        "trained per fold, or both; with --zoo: shipped (default: the product as it is), rules (the rules alone) or "
                        "learned (the section-kind model trained leave-one-family-out)")
    s.add_argument("--blocks-cache", metavar="DIR",
                   help="with --zoo --model learned: keep each family's read lines here between runs (clear it after a reader change)")
    s.add_argument("--generated", help="folder written by `cvrag generate` (round trip)")
    s.add_argument("--include-image-only", action="store_true",
                   help="also score labelled image-only files (needs OCR; skipped by default)")
    s.add_argument("--as-of", help="day years of experience run to (YYYY-MM-DD; default: the labels' day)")
    s.add_argument("--zoo", nargs="?", const="build/zoo", default=None, metavar="DIR",
                   help="score a built layout zoo family by family (default folder: build/zoo)")
    s.add_argument("--include-held-out", action="store_true",
                   help="with --zoo: also score the held-out families (the bench), as their own rows")
    s.add_argument("--families", help="with --zoo: only these families (comma-separated)")
    s.add_argument("--workers", type=int, default=1, help="with --zoo: processes reading documents (default 1)")
    s.add_argument("--json", action="store_true",
                   help="per-field numbers and per-file extracted vs label values, fp and fn")
    s.set_defaults(func=cmd_eval)
    s = sub.add_parser("generate", help="write synthetic CVs with ground truth")
    s.add_argument("--count", type=int, required=True)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--out", required=True)
    s.add_argument("--locale", default="es_ES")
    s.add_argument("--layout", default="mixed")
    s.add_argument("--no-llm", action="store_true")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_generate)
    s = sub.add_parser("demo", help="import a folder into a temporary home and print the candidates")
    s.add_argument("folder", nargs="?", default=os.environ.get("CVRAG_DEMO_DIR", "../shared/data/real-cvs/pdf"))
    s.add_argument("--workers", type=int, default=2)
    s.set_defaults(func=cmd_demo)
    search.register(sub, None)
    assistant.register(sub)
    compliance.register(sub)
    explain.register(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``cvrag``."""
    args = build_parser().parse_args(argv)
    if args.command in ("candidates",) and args.action in ("show", "delete") and not args.id:
        print("error: give a candidate id", file=sys.stderr)
        return 2
    tmp = None
    if args.command == "demo" and not os.environ.get("CVRAG_HOME"):
        tmp = tempfile.mkdtemp(prefix="cvrag-demo-")
        os.environ["CVRAG_HOME"] = tmp
    as_json = getattr(args, "json", False)
    if not as_json and not isinstance(sys.stdout, SafeStream):
        sys.stdout = SafeStream(sys.stdout)  # names and paths from files never drive the terminal
    svc = None
    try:
        svc = App()
        code = args.func(args, svc)
        _print_notes()
        return code
    except CvragError as exc:
        return _report_error(exc, as_json)
    except BrokenPipeError:  # `cvrag … | head`: the reader left; nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # never a raw traceback: a typed message, details in the log
        where = svc.paths.data_dir if svc is not None else Path(os.environ.get("CVRAG_HOME") or ".")
        typed = typed_error(exc, where)
        if typed is not None:
            return _report_error(typed, as_json)
        log_path = _log_unexpected(exc)
        return _report_error(CvragError(f"unexpected error ({type(exc).__name__}: {exc}); details in {log_path}"),
                             as_json, code=1)
    finally:
        if svc is not None:
            with contextlib.suppress(Exception):  # closing a damaged store must not hide the message above
                svc.close()


def _print_notes() -> None:
    """On stderr: what a read-only session could not save (a conversation turn, an export's audit entry)."""
    for note in take_notes():
        print(f"note: {safe(note)}", file=sys.stderr)


def _report_error(exc: CvragError, as_json: bool, code: int = 2) -> int:
    if as_json:
        _print_json({"error": exc.message, "status": exc.status})
    else:
        print(f"error: {safe(exc.message)}", file=sys.stderr)
    return code


def _log_unexpected(exc: BaseException) -> str:
    """Write the traceback to a log file (never to the terminal); returns its path."""
    import traceback

    text = "".join(traceback.format_exception(exc))
    for folder in (os.environ.get("CVRAG_HOME"), tempfile.gettempdir()):
        if not folder:
            continue
        try:
            path = Path(folder) / "cvrag-cli-error.log"
            with path.open("a", encoding="utf-8") as fh:
                fh.write(text + "\n")
            return str(path)
        except OSError:
            continue
    return "(no writable log location)"


if __name__ == "__main__":
    sys.exit(main())
