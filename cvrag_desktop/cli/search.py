"""``cvrag search`` and ``cvrag reindex``: thin commands over the search service.

:func:`register` adds the subcommands to the main parser; each command receives the
application (:class:`~cvrag_desktop.app.assembly.App`): ``svc.search`` searches,
``svc.library.reindex`` rebuilds the index.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from cvrag_desktop.app.search import POOL, checked_k, strategies
from cvrag_desktop.cli.output import warn_incomplete


def _filters(args) -> dict:
    f: dict = {}
    for key, attr in (("skills", "skill"), ("degrees", "degree"), ("languages", "language"),
                      ("companies", "company"), ("titles", "title"), ("institutions", "institution"),
                      ("names", "name")):
        values = getattr(args, attr, None)
        if values:
            f[key] = values
    if args.min_years is not None:
        f["min_years"] = args.min_years
    if args.max_years is not None:
        f["max_years"] = args.max_years
    if args.location:
        f["location"] = args.location
    return f


def print_hits(hits: list[dict]) -> None:
    """Human-readable hit list: rank, score, candidate, section/page and a text snippet."""
    if not hits:
        print("no results")
        return
    for i, h in enumerate(hits, 1):
        page = "" if h.get("page") is None else f" p.{h['page'] + 1}"
        snippet = " ".join((h.get("text") or "").split())[:110]
        print(f"{i:>2}. {h['score']:.3f}  {h.get('candidate_name') or h['candidate_id']}  "
              f"[{h['section']}{page}]  {snippet}")


def cmd_search(args, svc) -> int:
    """Search the index and print the hits (``--json`` for scripts).

    A free-text query is cut at the relevance floor (:mod:`cvrag_desktop.index.relevance`):
    the hits of people whose passages state too little of the query are held back and
    counted ("show weaker matches (N): --weaker"); ``--weaker`` lists them after the main ones.
    """
    filters = _filters(args)
    checked_k(args.k)  # before the pool below widens it: "--k -5" is a mistake, not "the first 200"
    warn_incomplete(svc)
    if not (args.query or "").strip() or args.strategy == "metadata":
        hits = svc.search.search(args.query, filters, k=args.k, strategy=args.strategy, rerank=not args.no_rerank)
        print(json.dumps(hits, ensure_ascii=False, indent=2)) if args.json else print_hits(hits)
        return 0
    pool = svc.search.search(args.query, filters, k=max(args.k, POOL), strategy=args.strategy,
                             rerank=not args.no_rerank)
    main, weaker = svc.search.split_at_floor(pool, args.query)
    weaker_people = len({h["candidate_id"] for h in weaker} - {h["candidate_id"] for h in main})
    hits = main[:args.k] + ([{**h, "weaker": True} for h in weaker][:args.k] if args.weaker else [])
    if args.json:
        print(json.dumps(hits, ensure_ascii=False, indent=2))
        return 0
    if not main:
        print("no close match")
        suggestions = svc.search.closest_terms(args.query)
        if suggestions:
            print(f"closest skills or names: {', '.join(suggestions)}")
    else:
        print_hits(main[:args.k])
    if weaker_people:
        if args.weaker:
            print("weaker matches:")
            print_hits(hits[len(main[:args.k]):])
        else:
            print(f"show weaker matches ({weaker_people}): add --weaker")
    return 0


def _progress(done: int, total: int, note: str) -> None:
    if sys.stderr.isatty():
        print(f"\r[{done}/{total}] {note}", end="", file=sys.stderr, flush=True)


def cmd_reindex(args, svc) -> int:
    """Rebuild the index from the catalog."""
    report = svc.library.reindex(progress=_progress, optimize=True)  # a process of its own: sealing is fine here
    if sys.stderr.isatty():
        print(file=sys.stderr)
    if args.json:
        print(json.dumps(report))
    else:
        print(f"indexed {report['candidates']} candidates ({report['points']} chunks) in {report['seconds']:.1f} s")
    if report.get("note"):  # e.g. no room to compact the segments (the rebuilt index works as it is)
        print(f"note: {report['note']}", file=sys.stderr)
    return 0


def register(subparsers: argparse._SubParsersAction, get_services: Callable | None = None) -> None:
    """Add ``search`` and ``reindex`` to the ``cvrag`` parser.

    ``get_services`` is accepted for front ends that build the session lazily; the
    commands use the session the main entry point passes to ``args.func``.
    """
    s = subparsers.add_parser("search", help="search CVs (hybrid, metadata filter, or filtered + ranked)")
    s.add_argument("query", nargs="?", default="", help="free text (may be empty with filters)")
    s.add_argument("--skill", action="append", help="required skill (repeatable)")
    s.add_argument("--min-years", type=int, default=None)
    s.add_argument("--max-years", type=int, default=None)
    s.add_argument("--degree", action="append")
    s.add_argument("--language", action="append", help="spoken language (repeatable)")
    s.add_argument("--company", action="append", help="employer, any role (repeatable)")
    s.add_argument("--title", action="append", help="current job title words")
    s.add_argument("--institution", action="append")
    s.add_argument("--name", action="append")
    s.add_argument("--location", default=None)
    s.add_argument("--k", type=int, default=8, help="number of hits (default 8)")
    s.add_argument("--strategy", choices=strategies(), default="hybrid")
    s.add_argument("--no-rerank", action="store_true", help="skip the cross-encoder even if present")
    s.add_argument("--weaker", action="store_true", help="also list the matches below the relevance floor")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_search)
    s = subparsers.add_parser("reindex", help="rebuild the search index from the catalog")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_reindex)
