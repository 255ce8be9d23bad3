"""Gaps between roles, a current break, and career changes, computed from the dated history.

"Any unexplained gaps?", "who took a career break?", "does Ana have gaps in her CV?", "who
changed careers?". Gaps are measured in whole months between one dated stretch of work and the
next (overlapping roles joined first); a year-only date counts from the year's last month to the
next year's first, so a gap is never longer than the CV makes it. A gap that studies printed on
the CV cover is shown as such, not as unexplained. A career change is a person whose first and
latest jobs (six months or more; no internship, student job or volunteering) are in fields of work
(:mod:`.work_fields`) with nothing in common.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from cvrag_desktop.assistant.facts.analytics import EvidenceBook
from cvrag_desktop.assistant.facts.people import PeopleIndex, Person
from cvrag_desktop.assistant.facts.relations import dated_roles, role_line
from cvrag_desktop.assistant.facts.store import CandidateFacts
from cvrag_desktop.assistant.facts.work_fields import present_of, role_fields, work_fields
from cvrag_desktop.domain import parse_partial_date

DEFAULT_MONTHS = 6  # what a recruiter calls a gap when the question gives no length
_N_MONTHS = re.compile(r"(\d+)\s*(?:\+\s*)?(months?|monate?n?|meses|mois|mesi|maanden|miesi\w*|个月|ヶ月|か月)")
_N_YEARS = re.compile(r"(\d+)\s*(?:\+\s*)?(years?|jahre?n?|anos|ans|anni|jaar|jaren|lat|lata|年)")
_A_YEAR = re.compile(r"\b(a year|one year|ein jahr|un ano|un an|un anno|um ano|een jaar|rok)\b")
_HALF_YEAR = re.compile(r"\b(half a year|half-year|six months|ein halbes jahr|halbes jahr|medio ano|six mois|"
                        r"sei mesi|meio ano|half jaar|pol roku)\b")
# "between jobs", "zwischen zwei Stellen": only gaps between two roles, not a break since the last one
BETWEEN = re.compile(r"\b(between|zwischen|entre|tra|tussen|miedzy|pomiedzy)\b")


@dataclass
class Gap:
    """Months without a dated role, the roles around it (indices), and studies that cover it."""

    months: int
    start: dt.date  # first month without work
    end: dt.date | None  # last month without work (None: the break runs to the CV's date)
    before: int | None  # role index ending before the gap
    after: int | None  # role index starting after it
    studies: str | None = None
    undated_cv: bool = False  # a break that runs to today because the CV prints no date


def months_asked(question_folded: str) -> int:
    """The gap length a question sets ("more than 12 months", "over a year"), else 6 months."""
    if m := _N_MONTHS.search(question_folded):
        return max(1, int(m.group(1)))
    if m := _N_YEARS.search(question_folded):
        return 12 * max(1, int(m.group(1)))
    if _HALF_YEAR.search(question_folded):
        return 6
    return 12 if _A_YEAR.search(question_folded) else DEFAULT_MONTHS


def _month(d: dt.date) -> int:
    return d.year * 12 + d.month


def _from_month(n: int) -> dt.date:
    return dt.date((n - 1) // 12, (n - 1) % 12 + 1, 1)


def _spans(f: CandidateFacts, present: dt.date) -> list[tuple[int, int, int]]:
    """(first month, last month, role index) of each dated role."""
    out = []
    for i, r in dated_roles(f):
        start = parse_partial_date(r.get("start"))
        end = present if r.get("is_current") else parse_partial_date(r.get("end"), end=True)
        if start is None or end is None or end < start:
            continue
        out.append((_month(start), _month(min(end, present)), i))
    return sorted(out)


def _studies(f: CandidateFacts, first: int, last: int) -> str | None:
    """The printed studies that cover at least half of the months first..last."""
    for ed in f.record.get("education", []):
        s, e = parse_partial_date(ed.get("start")), parse_partial_date(ed.get("end"), end=True)
        if s is None or e is None:
            continue
        overlap = min(last, _month(e)) - max(first, _month(s)) + 1
        if overlap * 2 >= last - first + 1:
            return " at ".join(x for x in (ed.get("degree"), ed.get("institution")) if x) or "studies"
    return None


def career_gaps(f: CandidateFacts, as_of: dt.date, min_months: int = DEFAULT_MONTHS) -> list[Gap]:
    """The gaps of at least ``min_months`` between dated roles, and a break since the last role."""
    present = present_of(f, as_of)
    spans = _spans(f, present)
    gaps: list[Gap] = []
    if not spans:
        return gaps
    reach, last_role = spans[0][1], spans[0][2]
    for start, end, i in spans[1:]:
        if start - reach - 1 >= min_months:
            first, last = reach + 1, start - 1
            gaps.append(Gap(last - first + 1, _from_month(first), _from_month(last), last_role, i,
                            _studies(f, first, last)))
        if end >= reach:
            reach, last_role = end, i
    if _month(present) - reach >= min_months and not any(r.get("is_current") for r in f.record.get("experiences", [])):
        first, last = reach + 1, _month(present)
        gaps.append(Gap(last - first + 1, _from_month(first), None, last_role, None, _studies(f, first, last),
                        undated_cv=not f.record.get("cv_date")))
    return gaps


def _say(g: Gap) -> str:
    to = "to today (the CV carries no date)" if g.undated_cv else "to the CV's date"
    span = f"{g.start:%Y-%m} – {g.end:%Y-%m}" if g.end else f"since {g.start:%Y-%m}, {to}"
    what = f"{g.months} month{'s' if g.months != 1 else ''} without a dated role ({span})"
    return what + (f", studying: {g.studies}" if g.studies else "")


def person_gaps(book: EvidenceBook, person: Person, f: CandidateFacts, as_of: dt.date, min_months: int,
                between: bool = False) -> dict:
    """One person's gaps (or that there are none), each with the roles on either side, cited
    (``between``: only gaps between two roles, not a break since the last one)."""
    roles = f.record.get("experiences", [])
    gaps = [g for g in career_gaps(f, as_of, min_months) if not (between and g.end is None)]
    if not _spans(f, present_of(f, as_of)):
        return {"status": "unknown", "answer": f"{person.name}'s CV has no dated roles, so gaps cannot be measured.",
                "data": {"candidate_ids": [f.candidate_id]}}
    if not gaps:
        checked = [role_line(book, f, i, roles[i]) for i, r in dated_roles(f) if parse_partial_date(r.get("start"))]
        return {"status": "answered", "answer": f"{person.name}: no gap of {min_months} months or more between the "
                f"dated roles on the CV:\n" + "\n".join(f"- {x}" for x in checked),
                "data": {"candidate_ids": [f.candidate_id], "gaps": 0}}
    lines = []
    for g in gaps:
        around = [role_line(book, f, i, roles[i]) for i in (g.before, g.after) if i is not None]
        lines.append(_say(g) + "".join(f"\n  {'after' if k == 0 else 'then'}: {x}" for k, x in enumerate(around)))
    head = f"{person.name}: {len(gaps)} gap{'s' if len(gaps) != 1 else ''} of {min_months}+ months:"
    return {"status": "answered", "answer": head + "\n" + "\n".join(f"- {x}" for x in lines),
            "data": {"candidate_ids": [f.candidate_id], "gaps": len(gaps)}}


def everyone_with_gaps(book: EvidenceBook, people: PeopleIndex, pool: list[CandidateFacts], as_of: dt.date,
                       min_months: int, current_only: bool = False, between: bool = False) -> dict:
    """The people with a gap not covered by studies (or only those on a break now, or only gaps
    between two roles), longest first."""
    people.refresh()
    rows: list[tuple[int, str, str, str, str]] = []
    seen: set[str] = set()
    for f in pool:
        p = people.person_of(f.candidate_id, refresh=False)
        key = p.person_id if p else f.candidate_id
        if key in seen:
            continue
        seen.add(key)
        gaps = [g for g in career_gaps(f, as_of, min_months) if not g.studies and (g.end is None or not current_only)
                and not (between and g.end is None)]
        if not gaps:
            continue
        g = max(gaps, key=lambda x: x.months)
        roles = f.record.get("experiences", [])
        cite = role_line(book, f, g.before, roles[g.before]) if g.before is not None else ""
        rows.append((g.months, people.display(p) if p else f.name, _say(g), cite, f.candidate_id))
    what = "on a break since their last role" if current_only else \
        f"with a gap of {min_months}+ months {'between two roles' if between else ''} not covered by studies".replace("  ", " ")
    if not rows:
        return {"status": "unknown", "answer": f"No imported CV shows anyone {what} (dated roles only).",
                "data": {"count": 0, "candidate_ids": []}}
    rows.sort(key=lambda r: (-r[0], r[1]))
    lines = [f"{name}: {said}" + (f"\n  last role before it: {cite}" if cite else "") for _, name, said, cite, _ in rows]
    return {"status": "answered", "answer": f"{len(rows)} candidate{'s' if len(rows) != 1 else ''} {what} "
            f"(longest gap each):\n" + "\n".join(f"- {x}" for x in lines),
            "data": {"count": len(rows), "candidate_ids": [r[4] for r in rows]}}


def _fields_of(f: CandidateFacts, indices: list[int]) -> set[str]:
    roles = f.record.get("experiences", [])
    return set().union(*(role_fields(roles[i]) for i in indices)) if indices else set()


# internships, student jobs and volunteering are no field a career was in
_NOT_A_JOB = re.compile(r"(?<!\w)(intern|internship|trainee|praktikant\w*|praktikum|stage|stagiaire|werkstudent\w*|"
                        r"student|volunteer\w*|volunt[aá]ri\w*|becario|becaria|tirocin\w*|estagi\w*|stagiair\w*|"
                        r"praktykant\w*|staż\w*|summer)(?!\w)", re.I)


def _a_job(r: dict, present: dt.date) -> bool:
    """A dated role of six months or more that is not an internship, a student job or volunteering."""
    start = parse_partial_date(r.get("start"))
    end = present if r.get("is_current") else parse_partial_date(r.get("end"), end=True)
    if start is None or end is None or _NOT_A_JOB.search(r.get("title") or ""):
        return False
    return _month(min(end, present)) - _month(start) + 1 >= 6


def career_changers(book: EvidenceBook, people: PeopleIndex, pool: list[CandidateFacts]) -> dict:
    """People whose earliest and latest dated roles are in fields with nothing in common, both cited."""
    people.refresh()
    labels = {w.fid: w.label for w in work_fields()}
    rows, ids, seen = [], [], set()
    for f in pool:
        p = people.person_of(f.candidate_id, refresh=False)
        key = p.person_id if p else f.candidate_id
        order = [i for i, r in dated_roles(f) if _a_job(r, present_of(f, dt.date.today()))]
        if key in seen:
            continue
        seen.add(key)
        order = [i for i in order if _fields_of(f, [i])]  # the jobs whose field is known
        if len(order) < 2:
            continue
        first, last = _fields_of(f, order[:1]), _fields_of(f, order[-1:])
        if not first or not last or first & last:
            continue
        roles = f.record.get("experiences", [])
        rows.append(f"{people.display(p) if p else f.name}: from {', '.join(sorted(labels[x] for x in first))} "
                    f"({role_line(book, f, order[0], roles[order[0]])}) to {', '.join(sorted(labels[x] for x in last))} "
                    f"({role_line(book, f, order[-1], roles[order[-1]])})")
        ids.append(f.candidate_id)
    if not rows:
        return {"status": "unknown", "answer": "No imported CV shows a change between fields of work "
                "(first and latest dated roles).", "data": {"count": 0, "candidate_ids": []}}
    return {"status": "answered", "answer": f"{len(rows)} candidate{'s' if len(rows) != 1 else ''} changed field "
            "(first dated role → latest):\n" + "\n".join(f"- {x}" for x in rows),
            "data": {"count": len(rows), "candidate_ids": ids}}
