"""``cvrag ingest``, ``forget --failed``, ``doctor``, ``diagnostics``, ``generate`` and ``demo``: the library itself.

Thin calls into ``app.library`` and ``app.health``; output through :mod:`cvrag_desktop.cli.output`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from cvrag_desktop.cli.output import _print_json, _progress, print_forget_report, print_table, safe


def cmd_ingest(args, svc) -> int:
    """Import files/folders."""
    report = svc.library.ingest([Path(p) for p in args.paths], use_llm=not args.no_llm, workers=args.workers,
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


def cmd_forget(args, svc) -> int:
    """Forget failed imports (their catalog rows and library copies)."""
    if not args.failed:
        print("error: say what to forget: --failed (failed imports). To forget a candidate use "
              "`cvrag candidates delete ID` or `cvrag people forget ID`.", file=sys.stderr)
        return 2
    report = svc.library.forget_failed()
    if args.json:
        _print_json(report)
    else:
        print(f"forgot {len(report['files'])} failed import(s); removed {report['files_removed']} library file(s)")
        for f in report["files"]:
            print(f"  {f['status']:<12} {safe(f['file_name'])}")
        print_forget_report(report)
    return 0


def cmd_doctor(args, svc) -> int:
    """Show paths, optional components and counts; ``--rebuild-catalog`` re-imports the library."""
    if args.rebuild_catalog:
        report = svc.library.rebuild_catalog(progress=_progress)
        if args.json:
            _print_json(report)
        else:
            verb = "continued the interrupted rebuild" if report["resumed"] else "rebuilt the catalog"
            print(f"{verb} from {report['library_files']} library file(s): ingested "
                  f"{report['ingested']}, already there {report['duplicates']}, failed {len(report['failed'])}")
            kept = report["damaged_catalog_kept_as"] or report["previous_catalog_kept_as"]
            if kept:
                from cvrag_desktop.app.rules import LEFTOVER_RETENTION_DAYS as RETENTION_DAYS

                what = "the damaged catalog" if report["damaged_catalog_kept_as"] else "the previous catalog"
                print(f"{what} is kept as {safe(kept)} for "
                      f"{RETENTION_DAYS} days (`cvrag doctor --purge-leftovers` removes it now)")
            if report["incomplete"]:
                print(f"warning: {report['incomplete']}", file=sys.stderr)
        return 0 if report["complete"] else 2
    if args.purge_leftovers:
        gone = svc.library.purge_leftovers()
        if args.json:
            _print_json({"removed": gone})
        else:
            print(f"removed {len(gone)} set-aside cop{'y' if len(gone) == 1 else 'ies'}")
            for x in gone:
                print(f"  - {safe(x['path'])} ({x['kind']}, {x['mb']} MB)")
        return 0
    if args.backup:
        path = svc.library.backup_catalog()
        print(json.dumps({"backup": str(path) if path else None}) if args.json else f"backup: {safe(path)}")
        return 0 if path else 2
    info = svc.health.first_run_report()  # doctor() + models found, OCR engine, LLM state with a fix, where data lives
    if args.json:
        _print_json(info)
    else:
        for k, v in info.items():
            print(f"{k:>14}: {json.dumps(v, ensure_ascii=False, default=str) if isinstance(v, dict) else v}")
    return 0


def cmd_diagnostics(args, svc) -> int:
    """Write a zip of versions, settings, doctor facts and logs (no CV text) for support."""
    path = svc.health.export_diagnostics(Path(args.out))
    print(json.dumps({"diagnostics": str(path)}) if args.json else f"diagnostics written to {safe(path)}")
    return 0


def cmd_generate(args, svc) -> int:
    """Write synthetic CVs with ground truth."""
    report = svc.library.generate(args.count, args.seed, Path(args.out), locale=args.locale, layout=args.layout,
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
    report = svc.library.ingest([Path(args.folder)], use_llm=False, workers=args.workers, progress=_progress)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    print(f"ingested {report.ingested}, duplicates {report.duplicates}, failed {len(report.failed)} "
          f"in {report.seconds:.1f} s")
    for f in report.failed:
        print(f"  {f['status']:<12} {Path(f['path']).name}: {f['error']}")
    print_table(svc.people.list_candidates())
    return 0
