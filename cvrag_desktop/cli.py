"""``cvrag``: the headless command line (JSON output with ``--json`` for scripts).

Every command is a thin call into :mod:`cvrag_desktop.services`, the same facade the
desktop application uses.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sqlite3
import sys
import tempfile
from pathlib import Path

from cvrag_desktop import cli_assistant, cli_compliance, cli_explain, cli_search
from cvrag_desktop.cli_output import SafeStream, safe
from cvrag_desktop.errors import CatalogDamaged, CvragError, IndexDamaged

LIST_COLUMNS = (("name", 24), ("current_title", 30), ("current_company", 22), ("years_of_experience", 6),
                ("emails", 28), ("skills", 30))


def _print_json(data) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def _cell(value, width: int) -> str:
    if isinstance(value, list):
        value = ", ".join(str(v) for v in value)
    text = safe(value)
    return (text[: width - 1] + "…") if len(text) > width else text.ljust(width)


LOW_MARK = "?"  # after a value the extractor is not sure of (see ingestion/fields/confidence.py)


def _low(row: dict, key: str) -> bool:
    return bool(((row.get("confidence") or {}).get(key) or {}).get("low"))


def _row_cell(row: dict, key: str, width: int) -> str:
    """A table cell; a low-confidence value keeps its " ?" mark visible when cut."""
    if not _low(row, key) or not row.get(key):
        return _cell(row.get(key), width)
    return (_cell(row.get(key), width - 2).rstrip() + " " + LOW_MARK).ljust(width)


def _check_note(rows: list[dict]) -> None:
    if any(_low(r, k) for r in rows for k in ("name", "current_title", "current_company")):
        print(f"{LOW_MARK} = low confidence, check the value (`cvrag candidates show ID` says why)")


def print_table(rows: list[dict]) -> None:
    """Print candidates as a fixed-width table ("?" after a value to check)."""
    print(" ".join(_cell(c.replace("years_of_experience", "yrs"), w) for c, w in LIST_COLUMNS))
    for r in rows:
        print(" ".join(_row_cell(r, c, w) for c, w in LIST_COLUMNS))
    print(f"({len(rows)} candidates)")
    _check_note(rows)


def _progress(done: int, total: int, note: str) -> None:
    if sys.stderr.isatty():
        print(f"\r[{done}/{total}] {note[:60]:<60}", end="", file=sys.stderr, flush=True)


def cmd_ingest(args, svc) -> int:
    """Import files/folders."""
    report = svc.ingest([Path(p) for p in args.paths], use_llm=not args.no_llm, workers=args.workers,
                        progress=_progress)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    skipped = [{"path": f.path, "reason": f.error} for f in report.files if f.status == "skipped"]
    data = {"ingested": report.ingested, "duplicates": report.duplicates, "failed": report.failed,
            "skipped": skipped, "seconds": report.seconds}
    if report.warnings:  # imported, but not whole (a long scan's OCR stopped at its page budget)
        data["warnings"] = report.warnings
    if report.llm_note:  # the model was marked down during the import (llm/breaker.py)
        data["llm_note"] = report.llm_note
    if args.json:
        _print_json(data)
    else:
        print(f"ingested {report.ingested}, duplicates {report.duplicates}, failed {len(report.failed)}, "
              f"skipped {len(skipped)} in {report.seconds:.1f} s")
        for f in skipped:  # hidden files, Word lock files: said, never silently dropped
            print(f"  {'skipped':<12} {safe(f['path'])}: {safe(f['reason'] or '')}")
        if report.llm_note:
            print(f"  {report.llm_note}")
        for f in report.warnings:
            print(f"  {'warning':<12} {safe(f['path'])}: {safe(f['warning'])}")
        for f in report.failed:
            print(f"  {f['status']:<12} {safe(f['path'])}: {safe(f['error'])}")
    return 2 if any(f["status"] == "disk_full" for f in report.failed) else 0  # (the rest was imported)


def cmd_candidates(args, svc) -> int:
    """List, show or delete candidates."""
    if args.action == "list":
        rows = svc.list_candidates()
        warn_incomplete(svc)
        _print_json(rows) if args.json else print_table(rows)
    elif args.action == "show":
        rec = svc.get_candidate(args.id)
        if args.json:
            _print_json(rec)
        else:
            conf = rec.get("confidence") or {}
            for k in ("name", "headline", "emails", "phones", "location", "current_title", "current_company",
                      "years_of_experience", "skills", "languages", "source_path"):
                print(f"{k:>20}: {_cell(rec.get(k), 100).rstrip()}{_check(conf, k)}")
            for n, e in enumerate(rec.get("experiences", [])):
                print(f"{'role':>20}: {safe(e.get('title'))}{_check(conf, f'experiences[{n}].title', short=True)} @ "
                      f"{safe(e.get('company'))}{_check(conf, f'experiences[{n}].company', short=True)} "
                      f"({safe(e.get('start'))} – {'present' if e.get('is_current') else safe(e.get('end'))})"
                      f"{_reasons(conf, f'experiences[{n}].')}")
            for n, e in enumerate(rec.get("education", [])):
                print(f"{'education':>20}: {safe(e.get('degree'))}{_check(conf, f'education[{n}].degree', short=True)} — "
                      f"{safe(e.get('institution'))}{_check(conf, f'education[{n}].institution', short=True)} "
                      f"({safe(e.get('end'))}){_reasons(conf, f'education[{n}].')}")
    elif args.action == "delete":
        report = svc.delete_candidate(args.id)
        if args.json:
            _print_json({"deleted": args.id, **report})
        else:
            print(f"deleted {safe(args.id)}")
            print_forget_report(report)
    return 0


def _check(conf: dict, key: str, short: bool = False) -> str:
    """" ?" (``short``) or "  [check: reason]" after a low-confidence value of ``candidates show``."""
    c = conf.get(key) or {}
    if not c.get("low"):
        return ""
    return f" {LOW_MARK}" if short else f"  [{LOW_MARK} check: {safe(c.get('reason') or 'low confidence')}]"


def _reasons(conf: dict, prefix: str) -> str:
    """The reasons of an entry's low-confidence values ("  [? check: title: no job-title vocabulary]")."""
    why = [safe(c.get("reason") or "low confidence") for k, c in conf.items() if k.startswith(prefix) and c.get("low")]
    return f"  [{LOW_MARK} check: {'; '.join(why)}]" if why else ""


def warn_incomplete(svc) -> None:
    """On stderr: the catalog is a partial rebuild (so a listing is not taken for the whole library)."""
    state = svc.rebuild_status()
    if state:
        print(f"warning: {state['message']}", file=sys.stderr)


def print_forget_report(report: dict) -> None:
    """Tell the user what forgetting removed, and what is still pending."""
    for p in report.get("refused") or []:
        print(f"not removed (outside this data folder's library): {safe(p)}")
    left = report.get("leftovers") or {}
    if left.get("scrubbed") or left.get("removed"):
        print(f"set-aside copies: {len(left.get('scrubbed') or [])} cleaned, {len(left.get('removed') or [])} removed"
              + "".join(f"\n  - removed {safe(p)}" for p in left.get("removed") or []))
    threads = report.get("threads_removed") or []
    if threads:
        print(f"removed {len(threads)} chat thread(s) that cited or named them:")
        for t in threads:
            print(f"  - {safe(t['thread_id'])}: {safe(t['title'])}")
    if report.get("pending"):
        print(f"still pending ({', '.join(report['pending'])}): {safe(report.get('pending_reason'))}")


def cmd_forget(args, svc) -> int:
    """Forget failed imports (their catalog rows and library copies)."""
    if not args.failed:
        print("error: say what to forget: --failed (failed imports). To forget a candidate use "
              "`cvrag candidates delete ID` or `cvrag people forget ID`.", file=sys.stderr)
        return 2
    report = svc.forget_failed()
    if args.json:
        _print_json(report)
    else:
        print(f"forgot {len(report['files'])} failed import(s); removed {report['files_removed']} library file(s)")
        for f in report["files"]:
            print(f"  {f['status']:<12} {safe(f['file_name'])}")
        print_forget_report(report)
    return 0


PEOPLE_COLUMNS = (("id", 17), ("name", 24), ("current_title", 28), ("current_company", 22), ("documents", 11))


def print_people(rows: list[dict]) -> None:
    """Print people as a fixed-width table ("2 documents" where a person has several CVs)."""
    print(" ".join(_cell(c, w) for c, w in PEOPLE_COLUMNS))
    for r in rows:
        n = r["documents"]
        cells = {**r, "documents": f"{n} document{'s' if n != 1 else ''}"}
        print(" ".join(_row_cell(cells, c, w) for c, w in PEOPLE_COLUMNS))
    print(f"({len(rows)} people, {sum(r['documents'] for r in rows)} documents)")
    _check_note(rows)


def cmd_people(args, svc) -> int:
    """List people; show a person's documents; merge, split, forget."""
    ids = args.ids
    if args.action == "list":
        rows = svc.list_people()
        warn_incomplete(svc)
        _print_json(rows) if args.json else print_people(rows)
        return 0
    need = 2 if args.action == "merge" else 1
    if len(ids) < need or (args.action != "merge" and len(ids) > 1):
        what = "two or more document ids" if need == 2 else "one person or document id"
        print(f"error: `cvrag people {args.action}` needs {what}", file=sys.stderr)
        return 2
    if args.action == "show":
        docs = svc.person_documents(ids[0])
        if args.json:
            _print_json(docs)
        else:
            print(safe(docs[0]["label"]))
            for d in docs:
                when = d.get("cv_date") or d.get("newest_date") or "?"
                print(f"  {'*' if d['primary'] else ' '} {d['id']}  {safe(when):<10} {safe(d.get('file_name') or '')}")
    elif args.action == "merge":
        result = svc.merge_people(ids)
        _print_json(result) if args.json else print(
            f"merged into person {result['person_id']} ({len(result['documents'])} documents)")
    elif args.action == "split":
        result = svc.split_document(ids[0])
        _print_json(result) if args.json else print(f"split {ids[0]} out: it is now person {result['person_id']}")
    elif args.action == "forget":
        deleted = svc.delete_person(ids[0])
        if args.json:
            _print_json({"deleted": deleted, **svc.last_forget})
        else:
            print(f"forgot the person and {len(deleted)} document(s): {', '.join(deleted)}")
            print_forget_report(svc.last_forget)
    elif args.action == "export-subject":
        return cli_compliance.cmd_export_subject(args, svc)
    elif args.action == "forget-document":
        report = svc.delete_candidate(ids[0])
        if args.json:
            _print_json({"deleted": [ids[0]], **report})
        else:
            print(f"forgot document {safe(ids[0])}")
            print_forget_report(report)
    return 0


def cmd_screen(args, svc) -> int:
    """Show or change people's screening: status, rating, tags, note (``cvrag screen ID... --status interview``)."""
    changes: dict = {}
    if args.status is not None:
        changes["status"] = args.status
    if args.rating is not None:
        changes["rating"] = args.rating
    if args.note is not None:
        changes["note"] = args.note
    if args.tag:
        changes["add_tags"] = args.tag
    if args.untag:
        changes["remove_tags"] = args.untag
    if args.reason is not None:  # kept with the status; the audit trail keeps its preset kind only
        from cvrag_desktop.catalog.screening import STATUS_REASONS

        changes["reason"] = STATUS_REASONS.get(args.reason, args.reason)
    states = svc.set_screening(args.ids, **changes) if changes else svc.screening_of(args.ids)
    if args.json:
        _print_json(states)
        return 0
    for pid, st in states.items():
        rating = f"{st['rating']}/5" if st["rating"] else "-"
        print(f"{pid}  {st['status']:<10} {rating:<4} {safe(', '.join(st['tags']))}"
              + (f"\n    reason: {safe(st['reason'])}" if st.get("reason") else "")
              + (f"\n    note: {safe(st['note'])}" if st["note"] else ""))
    return 0


def cmd_doctor(args, svc) -> int:
    """Show paths, optional components and counts; ``--rebuild-catalog`` re-imports the library."""
    if args.rebuild_catalog:
        report = svc.rebuild_catalog(progress=_progress)
        if args.json:
            _print_json(report)
        else:
            verb = "continued the interrupted rebuild" if report["resumed"] else "rebuilt the catalog"
            print(f"{verb} from {report['library_files']} library file(s): ingested "
                  f"{report['ingested']}, already there {report['duplicates']}, failed {len(report['failed'])}")
            if report["damaged_catalog_kept_as"]:
                from cvrag_desktop.catalog.compliance.leftovers import RETENTION_DAYS

                print(f"the damaged catalog is kept as {safe(report['damaged_catalog_kept_as'])} for "
                      f"{RETENTION_DAYS} days (`cvrag doctor --purge-leftovers` removes it now)")
            if report["incomplete"]:
                print(f"warning: {report['incomplete']}", file=sys.stderr)
        return 0 if report["complete"] else 2
    if args.purge_leftovers:
        gone = svc.purge_leftovers()
        if args.json:
            _print_json({"removed": gone})
        else:
            print(f"removed {len(gone)} set-aside cop{'y' if len(gone) == 1 else 'ies'}")
            for x in gone:
                print(f"  - {safe(x['path'])} ({x['kind']}, {x['mb']} MB)")
        return 0
    if args.backup:
        path = svc.catalog.backup_now()
        print(json.dumps({"backup": str(path) if path else None}) if args.json else f"backup: {safe(path)}")
        return 0 if path else 2
    from cvrag_desktop.diagnostics import first_run_report

    info = first_run_report(svc)  # doctor() + models found, OCR engine, LLM state with a fix, where data lives
    if args.json:
        _print_json(info)
    else:
        for k, v in info.items():
            print(f"{k:>14}: {json.dumps(v, ensure_ascii=False, default=str) if isinstance(v, dict) else v}")
    return 0


def cmd_diagnostics(args, svc) -> int:
    """Write a zip of versions, settings, doctor facts and logs (no CV text) for support."""
    from cvrag_desktop.diagnostics import export_diagnostics

    path = export_diagnostics(svc, Path(args.out))
    print(json.dumps({"diagnostics": str(path)}) if args.json else f"diagnostics written to {safe(path)}")
    return 0


def cmd_export(args, svc) -> int:
    """Write every candidate to a CSV file (``--blind``: pseudonyms, no contacts, location or file names)."""
    out = Path(args.out)
    n = svc.export_candidates_csv(svc.list_candidates(), out, blind=args.blind)
    out = out if out.suffix.lower() == ".csv" else out.with_suffix(".csv")
    print(json.dumps({"exported": n, "path": str(out), "blind": args.blind}) if args.json
          else f"exported {n} candidate(s){' (blind)' if args.blind else ''} to {safe(out)}")
    return 0


def cmd_eval(args, svc) -> int:
    """Measure extraction against a labelled folder."""
    if args.generated:
        from cvrag_desktop.evaluation.roundtrip import evaluate_generated, format_table

        result = evaluate_generated(Path(args.generated))
        _print_json(result) if args.json else print(format_table(result))
        return 0
    if not args.dataset:
        print("error: give --dataset DIR (labels.json) or --generated DIR (factory output)", file=sys.stderr)
        return 2
    missing = [d for d in args.dataset if not (Path(d) / "labels.json").is_file()]
    if missing:
        print(f"error: {missing[0]} has no labels.json", file=sys.stderr)
        return 2
    if args.folds:
        return _eval_folds(args)
    if len(args.dataset) > 1:
        print("error: several --dataset folders need --folds source", file=sys.stderr)
        return 2
    import datetime as dt

    from cvrag_desktop.evaluation.real_cvs import evaluate_folder

    try:
        as_of = dt.date.fromisoformat(args.as_of) if args.as_of else None
    except ValueError:
        print(f"error: --as-of wants a date YYYY-MM-DD, not {args.as_of!r}", file=sys.stderr)
        return 2
    dataset = Path(args.dataset[0])
    report = evaluate_folder(dataset, text_bearing_only=not args.include_image_only, as_of=as_of)
    # The table prints numbers only; per-file values (real people's data) only with --json.
    _print_json(report.to_json()) if args.json else print(report.table())
    return 0


def _eval_folds(args) -> int:
    """Leave-one-source-out over the labelled folders: the rules, and the learned line roles if asked."""
    from cvrag_desktop.evaluation.folds import evaluate_folds, load_labelled, rules_normalizer

    docs = load_labelled([Path(d) for d in args.dataset])
    out: dict = {}
    kinds = ("rules", "learned") if args.model == "both" else (args.model,)
    for kind in kinds:
        if kind == "rules":
            factory = rules_normalizer
        else:
            from cvrag_desktop.evaluation.fold_training import learned_normalizer

            factory = learned_normalizer
        report = evaluate_folds(docs, factory)
        if args.json:
            total = report.overall().to_json()
            out[kind] = {"overall": total["fields"], "folds": {
                k: {"n": report.sizes[k], "fields": r.to_json()["fields"], "files": r.files}
                for k, r in report.folds.items()}}
        else:
            print(f"== {kind}: leave-one-source-out, {len(docs)} documents, {len(report.folds)} sources")
            print(report.table())
            print()
    if args.json:
        _print_json(out)
    return 0


def cmd_generate(args, svc) -> int:
    """Write synthetic CVs with ground truth."""
    report = svc.generate(args.count, args.seed, Path(args.out), locale=args.locale, layout=args.layout,
                          use_llm=not args.no_llm, progress=_progress)
    if args.json:
        _print_json(report)
    else:
        print(f"generated {len(report['generated'])} CVs in {report['out_dir']} ({report['seconds']:.1f} s); "
              f"failed {len(report['failed'])}")
    return 0


def cmd_demo(args, svc) -> int:
    """Ingest a folder (default: the bundled real CVs) into a throwaway home and print the table."""
    print(f"data dir: {svc.paths.data_dir}")
    report = svc.ingest([Path(args.folder)], use_llm=False, workers=args.workers, progress=_progress)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    print(f"ingested {report.ingested}, duplicates {report.duplicates}, failed {len(report.failed)} "
          f"in {report.seconds:.1f} s")
    for f in report.failed:
        print(f"  {f['status']:<12} {Path(f['path']).name}: {f['error']}")
    print_table(svc.list_candidates())
    return 0


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
    s.add_argument("--model", choices=["rules", "learned", "both"], default="rules",
                   help="with --folds: the rules alone, the learned line roles trained per fold, or both")
    s.add_argument("--generated", help="folder written by `cvrag generate` (round trip)")
    s.add_argument("--include-image-only", action="store_true",
                   help="also score labelled image-only files (needs OCR; skipped by default)")
    s.add_argument("--as-of", help="day years of experience run to (YYYY-MM-DD; default: the labels' day)")
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
    cli_search.register(sub, None)
    cli_assistant.register(sub)
    cli_compliance.register(sub)
    cli_explain.register(sub)
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
    from cvrag_desktop.services import Services

    as_json = getattr(args, "json", False)
    if not as_json and not isinstance(sys.stdout, SafeStream):
        sys.stdout = SafeStream(sys.stdout)  # names and paths from files never drive the terminal
    svc = None
    try:
        svc = Services()
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
        from cvrag_desktop.catalog.store.health import typed_store_error

        where = svc.paths.data_dir if svc is not None else Path(os.environ.get("CVRAG_HOME") or ".")
        from cvrag_desktop.catalog.store.disk_space import disk_full, is_no_space

        typed = typed_store_error(exc, where) if isinstance(exc, OSError | sqlite3.Error) else None
        if typed is None and is_no_space(exc):  # the index engine's own words for a full disk
            typed = disk_full(where)
        if isinstance(typed, CatalogDamaged):  # not from the catalog (that one names itself): another store
            typed = IndexDamaged(f"A data file under {where} is damaged ({exc}). `cvrag reindex` rebuilds the "
                                 "search index from the catalog; `cvrag doctor` shows the state of each store.")
        if typed is not None and typed is not exc:
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
    from cvrag_desktop.catalog.store.read_only import take_notes

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
