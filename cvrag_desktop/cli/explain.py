"""``cvrag explain``: why a candidate has their rank, from the command line (issue 23).

``cvrag explain match MATCH_ID PERSON`` explains one row of a saved job match (``cvrag match
--save``; ``cvrag matches`` lists them); ``cvrag explain search QUERY PERSON`` one person's
place in a ranked search (the search is run again, as the GUI runs it). Instead of a person,
``--rank N`` names whoever is at that place. A person is any of its document ids or a part of
the name, when only one row has it. ``--json`` prints the explanation for scripts; ``--export
FILE.html|.txt`` writes the candidate-facing explanation (no other candidate in it; audited).
Every call goes through the application layer (:mod:`cvrag_desktop.app`).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from cvrag_desktop.app.output import safe
from cvrag_desktop.cli.search import _filters
from cvrag_desktop.errors import InvalidInput, NotFound

EXPORT_SUFFIXES = (".html", ".htm", ".txt")


def _print_json(data) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def _export_path(value: str | None) -> Path | None:
    """The ``--export`` file, checked before any work is done."""
    if not value:
        return None
    path = Path(value)
    if path.suffix.lower() not in EXPORT_SUFFIXES:
        raise InvalidInput(f"--export wants a .html or .txt file, not {path.name!r}.")
    if not path.parent.is_dir():
        raise InvalidInput(f"--export: the folder {path.parent} does not exist.")
    return path


def _by_name(rows: list[dict], person: str, key: str = "name") -> list[dict]:
    needle = person.casefold().strip()
    return [r for r in rows if needle and needle in str(r.get(key) or "").casefold()]


def match_row_id(svc, result: dict, person: str | None, rank: int | None) -> str:
    """The document id of the job-match row meant by ``person`` (an id or a part of a name) or ``rank``."""
    rows = result.get("candidates") or []
    if not rows:
        raise NotFound("This job match has no candidates.")
    if person is None:
        if rank is None or not 1 <= rank <= len(rows):
            raise InvalidInput(f"This match shows {len(rows)} candidate(s): give --rank 1 to {len(rows)}.")
        return rows[rank - 1]["candidate_id"]
    for r in rows:
        if person in (r.get("candidate_id"), r.get("person_id")):
            return r["candidate_id"]
    try:  # another document of a person whose row is in the match
        docs = {d["id"] for d in svc.people.person_documents(person)}
    except NotFound:
        docs = set()
    hit = next((r for r in rows if {r.get("candidate_id"), r.get("person_id")} & docs), None)
    if hit is not None:
        return hit["candidate_id"]
    named = _by_name(rows, person)
    if len(named) == 1:
        return named[0]["candidate_id"]
    if len(named) > 1:
        raise InvalidInput(f"{len(named)} candidates of this match are called {person!r}: give an id or --rank.")
    raise NotFound(f"{person!r} is not among this match's {len(rows)} candidate(s).")


def search_person_id(svc, person: str | None) -> str | None:
    """A person meant by an id (kept as given) or a part of a name (one person only)."""
    if person is None:
        return None
    try:
        svc.people.person_documents(person)
        return person
    except NotFound:
        pass
    people = svc.people.list_people()
    named = _by_name(people, person, "display") or _by_name(people, person)
    if len(named) == 1:
        return named[0]["id"]
    if len(named) > 1:
        raise InvalidInput(f"{len(named)} people are called {person!r}: give an id or --rank.")
    raise NotFound(f"No person {person!r} in this library.")


def cmd_explain(args, svc) -> int:
    """``explain match`` / ``explain search``: text, ``--json``, or ``--export`` for the candidate."""
    if args.person is not None and args.rank is not None:
        raise InvalidInput("Give a person or --rank, not both.")
    if args.person is None and args.rank is None:
        raise InvalidInput("Say whose rank to explain: a person (id or name) or --rank N.")
    out = _export_path(args.export)
    if args.kind == "match":
        try:
            match_id = int(args.target)
        except ValueError:
            raise InvalidInput(f"A saved match id is a number (`cvrag matches` lists them), not {args.target!r}."
                               ) from None
        saved = svc.jobs.open_match(match_id)
        cid = match_row_id(svc, saved["result"], args.person, args.rank)
        expl = svc.jobs.explain_match(saved["result"], cid, saved.get("jd_text"))
        title = saved.get("title")
    else:
        query = (args.target or "").strip()
        if not query:
            raise InvalidInput("Give the search words to explain, e.g. `cvrag explain search \"kafka\" --rank 1`.")
        expl = svc.search.explain_search(query, search_person_id(svc, args.person), _filters(args) or None, rank=args.rank)
        title = f"“{query}”"
    if out is not None:
        written = svc.jobs.export_explanation(expl, out, title)
        if args.json:
            _print_json({"exported": str(written), "kind": expl["kind"], "rank": expl["rank"],
                         "ranked": expl["ranked"]})
        else:
            print(f"wrote the candidate-facing explanation to {safe(written)} (no other candidate is named in it)")
        return 0
    if args.json:
        _print_json(expl)
    else:
        print(svc.jobs.explanation_text(expl, title))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``explain`` to the ``cvrag`` parser."""
    s = sub.add_parser("explain", help="why a candidate has their rank (a saved job match or a search)",
                       description="match MATCH_ID PERSON | match MATCH_ID --rank N | search QUERY PERSON | "
                                   "search QUERY --rank N. PERSON: any document id of the person, or a part of "
                                   "the name. --export FILE.html|.txt writes the explanation for the candidate.")
    s.add_argument("kind", choices=["match", "search"])
    s.add_argument("target", help="match: the saved match id (`cvrag matches`); search: the search words")
    s.add_argument("person", nargs="?", default=None, help="the person (id or name); or give --rank")
    s.add_argument("--rank", type=int, default=None, help="the person at this place (1 = first)")
    s.add_argument("--export", default=None, metavar="FILE",
                   help="write the candidate-facing explanation (.html or .txt; nobody else named; audited)")
    s.add_argument("--skill", action="append", help="search: the skill filter the search had (repeatable)")
    s.add_argument("--language", action="append", help="search: the spoken-language filter")
    s.add_argument("--min-years", type=int, default=None, help="search: the minimum years filter")
    s.add_argument("--max-years", type=int, default=None, help="search: the maximum years filter")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_explain, location=None)
