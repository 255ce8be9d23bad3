"""``cvrag audit ...``: the audit trail from the command line (thin calls into ``app.compliance``).

``verify`` checks the hash chain and names the first broken link (exit 1 when broken);
``list`` prints entries filtered by time, action and person; ``export`` writes them as CSV;
``retention`` shows or sets how long the trail is kept. ``cvrag retention ...`` runs the
applicants' retention clocks and the confirmed purge; ``people export-subject`` the access export.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from cvrag_desktop.app.output import safe
from cvrag_desktop.errors import InvalidInput


def _print_json(data) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def _since(value: str | None) -> str | None:
    """An ISO date or date-time as given (validated), for comparing with entry times."""
    if not value:
        return None
    import datetime as dt

    try:
        dt.datetime.fromisoformat(value)
    except ValueError:
        raise InvalidInput(f"--since wants a date YYYY-MM-DD (or date and time), not {value!r}.") from None
    return value


def cmd_audit(args, svc) -> int:
    """verify | list | export | retention."""
    if args.action == "verify":
        report = svc.compliance.audit_verify()
        if args.json:
            _print_json(report)
        elif report["ok"]:
            print(f"audit trail intact: {report['entries']} entries, every link checked")
        else:
            b = report["first_broken"]
            print(f"audit trail BROKEN at entry {b['seq']}: {b['reason']} ({report['entries']} entries)")
        if not args.json:
            for note in report.get("notes") or []:  # e.g. a restored catalog backup, re-anchored at the next entry
                print(f"note: {safe(note)}")
        return 0 if report["ok"] else 1
    if args.action == "retention":
        days = svc.compliance.audit_retention_days(args.days)
        _print_json({"retention_days": days}) if args.json else print(f"the audit trail is kept {days} days")
        return 0
    since = _since(args.since)
    if args.action == "export":
        if not args.out:
            print("error: `cvrag audit export` needs --out FILE.csv", file=sys.stderr)
            return 2
        n = svc.compliance.audit_export(Path(args.out), since, args.filter_action, args.person)
        out = Path(args.out)
        _print_json({"exported": n, "path": str(out)}) if args.json else print(f"exported {n} entries to {safe(out)}")
        return 0
    entries = svc.compliance.audit_entries(since, args.filter_action, args.person)
    if args.json:
        _print_json(entries)
        return 0
    for e in entries:
        details = json.dumps(e["details"], ensure_ascii=False, sort_keys=True)
        print(f"{e['seq']:>6} {e['at'][:19]} {safe(e['actor']):<12} {e['action']:<20} {e['person'] or '-':<22} "
              f"{safe(details)}")
    print(f"({len(entries)} entries)")
    return 0


def cmd_export_subject(args, svc) -> int:
    """``cvrag people export-subject ID --out FILE.zip``: a subject-access export of one person."""
    if not args.out:
        print("error: `cvrag people export-subject ID` needs --out FILE.zip", file=sys.stderr)
        return 2
    report = svc.compliance.export_subject(args.ids[0], Path(args.out))
    if args.json:
        _print_json(report)
    else:
        print(f"wrote {safe(report['path'])}: {report['documents']} document(s), {report['originals']} original(s), "
              f"{report['audit_entries']} audit entries, {report['chat_threads']} conversation(s)")
    return 0


def _print_clocks(clocks: list[dict]) -> None:
    for c in clocks:
        when = c["due"][:10] if c["due"] else (c["exempt"] or "no period chosen")
        left = f"{c['days_left']:>5} d" if c["days_left"] is not None else "    -  "
        consent = f"  consent until {c['consent_until']}" if c["consent_until"] else ""
        print(f"{c['person_id']:<17} {safe(c['name'] or ''):<28} last activity {c['last_activity'][:10]}  due {when} "
              f"{left}{consent}")
    print(f"({len(clocks)} people)")


def cmd_retention(args, svc) -> int:
    """status | due [--days N] | purge [--confirm] | set --preset P [--days N] | consent ID --until DATE."""
    from cvrag_desktop.app.rules import NOT_LEGAL_ADVICE
    if args.action == "set":
        policy = svc.compliance.set_retention(args.preset, args.days)
        if args.json:
            _print_json(policy)
        else:
            print(f"retention: {policy['days']} days ({policy['preset']}): {policy['source']}\n{NOT_LEGAL_ADVICE}")
        return 0
    if args.action == "consent":
        if len(args.ids) != 1 or not (args.until or args.withdraw):
            print("error: `cvrag retention consent ID --until YYYY-MM-DD` (or --withdraw)", file=sys.stderr)
            return 2
        result = svc.compliance.set_consent(args.ids[0], None if args.withdraw else args.until)
        _print_json(result) if args.json else print(
            f"{result['person_id']}: consent to keep until {result['consent_until'] or '(withdrawn)'}")
        return 0
    if args.action == "status":
        status = svc.compliance.retention_status()
        if args.json:
            _print_json(status)
            return 0
        p = status["policy"]
        print(f"retention: {p['days'] or '-'} days ({p['preset'] or 'not set'}): {p['source']}\n{p['notice']}")
        _print_clocks(status["people"])
        return 0
    within = 30 if args.days is None else args.days
    if args.action == "due":
        due = svc.compliance.retention_due(within)
        _print_json(due) if args.json else _print_clocks(due)
        return 0
    due = svc.compliance.retention_due(0)  # purge: the people due now, only after the user confirmed this batch
    if not args.confirm:
        if args.json:
            _print_json({"would_purge": due, "purged": 0})
        else:
            _print_clocks(due)
            print("nothing was deleted: run `cvrag retention purge --confirm` to forget these people for good"
                  if due else "nobody is due for deletion")
        return 2 if due else 0
    report = svc.compliance.retention_purge([c["person_id"] for c in due])
    if args.json:
        _print_json(report)
    else:
        print(f"purged {report['purged']} people ({report['documents']} documents); "
              f"{len(report['threads_removed'])} chat thread(s) removed")
        if report["pending"]:
            print(f"still pending: {', '.join(report['pending'])} (finished at the next start)")
    return 0


def register(sub) -> None:
    """Add ``audit`` and ``retention`` to the ``cvrag`` parser."""
    s = sub.add_parser("retention", help="retention of applicants' data: period, clocks, due list, purge (not "
                                         "legal advice)",
                       description="status | due [--days 30] | purge [--confirm] | set --preset DE|AT|FR|NL|"
                                   "NL-consent|UK|custom [--days N] | consent ID --until YYYY-MM-DD [--withdraw]. "
                                   "The presets are common readings of national guidance, NOT legal advice.")
    s.add_argument("action", choices=["status", "due", "purge", "set", "consent"])
    s.add_argument("ids", nargs="*")
    s.add_argument("--days", type=int, help="due: within this many days (default 30); set: the period in days")
    s.add_argument("--preset", help="set: DE, AT, FR, NL, NL-consent, UK or custom")
    s.add_argument("--until", help="consent: keep until this day (YYYY-MM-DD)")
    s.add_argument("--withdraw", action="store_true", help="consent: withdraw it")
    s.add_argument("--confirm", action="store_true", help="purge: forget the people listed as due now")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_retention)
    s = sub.add_parser("audit", help="the audit trail: verify the chain, list or export entries, retention",
                       description="verify | list [--since DATE] [--action NAME|prefix.] [--person ID] | "
                                   "export --out FILE.csv | retention [--days N]. Entries hold ids, counts and "
                                   "pseudonymous references, never CV or note text.")
    s.add_argument("action", choices=["verify", "list", "export", "retention"])
    s.add_argument("--since", help="entries from this date/time on (ISO, UTC)")
    s.add_argument("--action", dest="filter_action", help="one action (screening.status) or a prefix (screening.)")
    s.add_argument("--person", help="entries about this person (any of its document ids)")
    s.add_argument("--out", help="with export: the CSV file to write")
    s.add_argument("--days", type=int, help="with retention: keep entries this many days (at least 183)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_audit)
