"""``cvrag candidates``, ``cvrag people``, ``cvrag screen`` and ``cvrag export``: documents, people, screening.

Thin calls into ``app.people`` and ``app.screening``; output through :mod:`cvrag_desktop.cli.output`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from cvrag_desktop.cli import compliance
from cvrag_desktop.cli.output import (
    LOW_MARK,
    _cell,
    _print_json,
    print_forget_report,
    print_people,
    print_table,
    safe,
    warn_incomplete,
)


def cmd_candidates(args, svc) -> int:
    """List, show or delete candidates."""
    if args.action == "list":
        rows = svc.people.list_candidates()
        warn_incomplete(svc)
        _print_json(rows) if args.json else print_table(rows)
    elif args.action == "show":
        rec = svc.people.get_candidate(args.id)
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
        report = svc.people.delete_candidate(args.id)
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


def cmd_people(args, svc) -> int:
    """List people; show a person's documents; merge, split, forget."""
    ids = args.ids
    if args.action == "list":
        rows = svc.people.list_people()
        warn_incomplete(svc)
        _print_json(rows) if args.json else print_people(rows)
        return 0
    need = 2 if args.action == "merge" else 1
    if len(ids) < need or (args.action != "merge" and len(ids) > 1):
        what = "two or more document ids" if need == 2 else "one person or document id"
        print(f"error: `cvrag people {args.action}` needs {what}", file=sys.stderr)
        return 2
    if args.action == "show":
        docs = svc.people.person_documents(ids[0])
        if args.json:
            _print_json(docs)
        else:
            print(safe(docs[0]["label"]))
            for d in docs:
                when = d.get("cv_date") or d.get("newest_date") or "?"
                print(f"  {'*' if d['primary'] else ' '} {d['id']}  {safe(when):<10} {safe(d.get('file_name') or '')}")
    elif args.action == "merge":
        result = svc.people.merge_people(ids)
        _print_json(result) if args.json else print(
            f"merged into person {result['person_id']} ({len(result['documents'])} documents)")
    elif args.action == "split":
        result = svc.people.split_document(ids[0])
        _print_json(result) if args.json else print(f"split {ids[0]} out: it is now person {result['person_id']}")
    elif args.action == "forget":
        deleted = svc.people.delete_person(ids[0])
        if args.json:
            _print_json({"deleted": deleted, **svc.last_forget})
        else:
            print(f"forgot the person and {len(deleted)} document(s): {', '.join(deleted)}")
            print_forget_report(svc.last_forget)
    elif args.action == "export-subject":
        return compliance.cmd_export_subject(args, svc)
    elif args.action == "forget-document":
        report = svc.people.delete_candidate(ids[0])
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
        from cvrag_desktop.app.rules import STATUS_REASONS

        changes["reason"] = STATUS_REASONS.get(args.reason, args.reason)
    states = svc.screening.set_screening(args.ids, **changes) if changes else svc.screening.screening_of(args.ids)
    if args.json:
        _print_json(states)
        return 0
    for pid, st in states.items():
        rating = f"{st['rating']}/5" if st["rating"] else "-"
        print(f"{pid}  {st['status']:<10} {rating:<4} {safe(', '.join(st['tags']))}"
              + (f"\n    reason: {safe(st['reason'])}" if st.get("reason") else "")
              + (f"\n    note: {safe(st['note'])}" if st["note"] else ""))
    return 0


def cmd_export(args, svc) -> int:
    """Write every candidate to a CSV file (``--blind``: pseudonyms, no contacts, location or file names)."""
    out = Path(args.out)
    n = svc.screening.export_candidates_csv(svc.people.list_candidates(), out, blind=args.blind)
    print(json.dumps({"exported": n, "path": str(out), "blind": args.blind}) if args.json
          else f"exported {n} candidate(s){' (blind)' if args.blind else ''} to {safe(out)}")
    return 0
