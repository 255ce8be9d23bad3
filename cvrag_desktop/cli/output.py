"""What the ``cvrag`` commands print: fixed-width tables, JSON, progress, forget reports (all inert).

Names and paths come from files someone else made: every value goes through :func:`safe`.
"""

from __future__ import annotations

import json
import sys

from cvrag_desktop.app.output import SafeStream, safe

__all__ = ["LOW_MARK", "SafeStream", "print_forget_report", "print_people", "print_table", "safe",
           "warn_incomplete"]


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


def warn_incomplete(svc) -> None:
    """On stderr: the catalog is a partial rebuild (so a listing is not taken for the whole library)."""
    state = svc.library.rebuild_status()
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
