"""``cvrag ask`` and ``cvrag match``: the assistant from the command line.

:func:`register` adds both subcommands; each receives the session object (``svc``)
the main entry point passes to ``args.func``: the application (:class:`~cvrag_desktop.app.assembly.App`),
whose ``chat`` and ``jobs`` operations answer and match.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cvrag_desktop.app.chat import ask_json
from cvrag_desktop.app.output import SafeStream
from cvrag_desktop.errors import InvalidInput


def _stream(piece: str) -> None:
    """A draft piece of the model's answer, with any terminal escapes in it made inert."""
    SafeStream(sys.stderr).write(piece)
    sys.stderr.flush()


def cmd_ask(args, svc) -> int:
    """Answer a question with citations (``--json`` for scripts)."""
    draft = sys.stderr.isatty() and not args.json
    result = svc.chat.ask(args.question, thread_id=args.thread, use_llm=not args.no_llm,
                           on_token=_stream if draft else None)
    if draft:
        print("\r\033[K", end="", file=sys.stderr)
    for warning in result.get("warnings") or []:
        print(f"warning: {warning}", file=sys.stderr)
    if args.json:
        print(json.dumps(ask_json(result), ensure_ascii=False, indent=2))
        return 0
    label = "" if result["mode"] == "llm" else " (deterministic mode)"
    print(f"[{result['status']}{label}, route {result['route']}]")
    print(result["answer"])
    if result["citations"]:
        print("\nSources:")
        for c in result["citations"]:
            page = "" if c.get("page") is None else f" p.{c['page'] + 1}"
            print(f"  [{c['evidence_id']}] {c.get('candidate_name')} — {c['section']}{page} — {c.get('source_path')}")
    print(f"\n(thread {result['thread_id']})")
    return 0


def cmd_match(args, svc) -> int:
    """Rank candidates against a job description file."""
    path = Path(args.jd)
    if not path.is_file():
        raise InvalidInput(f"No job description file at {path}.")
    result = svc.jobs.match_jd(path.read_text(encoding="utf-8", errors="replace"), use_llm=not args.no_llm,
                                         limit=args.limit)
    if args.save:  # keep it in the library (``cvrag matches`` lists the saved ones)
        result["saved"] = svc.jobs.save_match(result, path.read_text(encoding="utf-8", errors="replace"))
    if args.csv:
        _write_csv(svc, result, args.csv, args.blind)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return 0
    req = result["requirements"]
    print(f"must: {', '.join(req['must_have_skills']) or '-'} | nice: {', '.join(req['nice_to_have_skills']) or '-'}"
          f" | years: {req['min_years'] or '-'} | degree: {req['degree_level'] or '-'} | languages: "
          f"{', '.join(req['languages']) or '-'}  ({result['mode']} mode)")
    marks = {"met": "✓", "not_met": "✗", "unknown": "?"}
    for i, c in enumerate(result["candidates"], 1):
        cells = " ".join(f"{x['requirement']}{marks[x['status']]}" for x in c["cells"])
        print(f"{i:>2}. {c['name']:<28} {c['met']}/{c['total']}  {cells}")
    if result.get("unread"):
        print(f"Not interpreted: {', '.join(result['unread'])}")
    if args.save:
        print(f"(saved as match {result['saved']['match_id']})")
    return 0


def _write_csv(svc, result: dict, path: str, blind: bool) -> None:
    """The requirement × candidate matrix as CSV (pseudonyms only with ``blind``, audited); says where on stderr."""
    n = svc.jobs.export_match_csv(result, Path(path), blind)
    print(f"wrote {n} candidate(s) to {path}", file=sys.stderr)


def cmd_matches(args, svc) -> int:
    """List the saved job matches (``--json`` for scripts); ``--open ID`` prints one, ``--csv`` exports it."""
    if args.open is not None:
        saved = svc.jobs.open_match(args.open)
        if args.csv:
            _write_csv(svc, saved["result"], args.csv, args.blind)
        if args.json:
            print(json.dumps(saved, ensure_ascii=False, indent=2))
        elif not args.csv:
            for i, c in enumerate(saved["result"].get("candidates") or [], 1):
                print(f"{i:>2}. {c.get('name') or c['candidate_id']:<28} {c['met']}/{c['total']}  score {c['score']}")
        return 0
    rows = svc.jobs.list_matches()
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    for m in rows:
        print(f"{m['match_id']:>4}  {m['title']:<40} {m['candidates']} candidates"
              f"{'  (LLM)' if m['used_llm'] else ''}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``ask`` and ``match`` to the ``cvrag`` parser."""
    s = subparsers.add_parser("ask", help="ask a question about the imported CVs (cited answer)")
    s.add_argument("question")
    s.add_argument("--thread", default=None, help="conversation id (follow-up questions)")
    s.add_argument("--no-llm", action="store_true", help="deterministic mode even if a model is running")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_ask)
    s = subparsers.add_parser("match", help="rank candidates against a job description")
    s.add_argument("--jd", required=True, help="text file with the job description")
    s.add_argument("--limit", type=int, default=20)
    s.add_argument("--no-llm", action="store_true")
    s.add_argument("--save", action="store_true", help="keep the match (description + results) in the library")
    s.add_argument("--csv", default=None, metavar="FILE", help="also write the requirement x candidate matrix")
    s.add_argument("--blind", action="store_true", help="candidates as pseudonyms in the CSV")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_match)
    s = subparsers.add_parser("matches", help="list the saved job matches")
    s.add_argument("--open", type=int, default=None, metavar="ID", help="show one saved match")
    s.add_argument("--csv", default=None, metavar="FILE", help="with --open: write its matrix as CSV")
    s.add_argument("--blind", action="store_true", help="candidates as pseudonyms in the CSV")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_matches)
