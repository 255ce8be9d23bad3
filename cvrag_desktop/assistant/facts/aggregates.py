"""Questions over all people that the stored fields alone do not answer, computed in code.

Whose current job started earliest, who graduated first or last, who worked for the
most employers, which employers several people share, who is in the library twice,
which contacts several people share, whose CV is the newest, and how many people
mention a term anywhere. Everything counts *people* (documents of one person count
once) and cites the chunk showing each fact.
"""

from __future__ import annotations

import os
import re

from cvrag_desktop.assistant.answer.compare import publication_count
from cvrag_desktop.assistant.facts.analytics import EvidenceBook
from cvrag_desktop.assistant.facts.cvdate import cv_date
from cvrag_desktop.assistant.facts.people import PeopleIndex, Person
from cvrag_desktop.assistant.facts.relations import role_line
from cvrag_desktop.assistant.facts.store import CandidateFacts
from cvrag_desktop.assistant.understand.question import has_phrase
from cvrag_desktop.domain import parse_partial_date
from cvrag_desktop.text.companies import employer_key
from cvrag_desktop.text.fold import fold
from cvrag_desktop.text.keys import normalize_key
from cvrag_desktop.text.vocab.degrees import LEVEL_WORDS, degree_level
from cvrag_desktop.text.vocab.places import countries_of_places, country_name, country_of_phone

TOP = 5
SHOWN_PER_GROUP = 5


def _primary(index: PeopleIndex, p: Person) -> CandidateFacts:
    return index.doc(p.primary)


def _answer(head: str, lines: list[str], ids: list[str], **data) -> dict:
    return {"status": "answered", "answer": head + "\n" + "\n".join(f"- {x}" for x in lines),
            "data": {"candidate_ids": ids, **data}}


def current_start(book: EvidenceBook, index: PeopleIndex, earliest: bool) -> dict:
    """Whose current role started earliest (or latest)."""
    rows = []
    for p in index.refresh().people.values():
        f = _primary(index, p)
        for i, r in enumerate(f.record.get("experiences", [])):
            start = parse_partial_date(r.get("start"))
            if r.get("is_current") and start:
                rows.append((start, p, f, i, r))
    if not rows:
        return {"status": "unknown", "answer": "None of the imported CVs has a dated current role."}
    rows.sort(key=lambda t: t[0], reverse=not earliest)
    lines = [f"{index.display(p)}: {role_line(book, f, i, r)}" for _, p, f, i, r in rows[:TOP]]
    word = "earliest" if earliest else "most recently"
    return _answer(f"Current roles, the one started {word} first:", lines, [rows[0][2].candidate_id])


def graduation(book: EvidenceBook, index: PeopleIndex, earliest: bool) -> dict:
    """Who finished a degree first (or last): the end date of each person's education entries."""
    rows = []
    for p in index.refresh().people.values():
        f = _primary(index, p)
        ends = [(parse_partial_date(ed.get("end"), end=True), i, ed) for i, ed in enumerate(f.record.get("education",
                                                                                                       []))
                if ed.get("end") and (ed.get("degree") or ed.get("institution"))]
        ends = [e for e in ends if e[0]]
        if ends:
            rows.append(((min if earliest else max)(ends, key=lambda e: e[0]), p, f))
    if not rows:
        return {"status": "unknown", "answer": "None of the imported CVs gives a graduation date."}
    rows.sort(key=lambda t: t[0][0], reverse=not earliest)
    lines = []
    for (_, i, ed), p, f in rows[:TOP]:
        label = ed.get("degree") or ed.get("institution")
        where = f"education[{i}].degree" if ed.get("degree") else f"education[{i}].institution"
        text = ", ".join(x for x in (ed.get("degree"), ed.get("institution")) if x)
        lines.append(f"{index.display(p)}: {text}, finished {ed['end']}"
                     + book.cite(book.facts.chunk_for(f.candidate_id, where, label, "education"), "text", label))
    word = "earliest" if earliest else "most recently"
    return _answer(f"Graduated {word} (degree end dates):", lines, [rows[0][2].candidate_id])


def distinct_employers(f: CandidateFacts) -> dict[str, int]:
    """Employer key → index of its first role, for one document."""
    out: dict[str, int] = {}
    for i, r in enumerate(f.record.get("experiences", [])):
        k = employer_key(r.get("company") or "")
        if len(k) >= 2 and k not in out:
            out[k] = i
    return out


def most_employers(book: EvidenceBook, index: PeopleIndex) -> dict:
    """Who has worked for the most different employers."""
    rows = sorted(((len(distinct_employers(_primary(index, p))), p) for p in index.refresh().people.values()),
                  key=lambda t: -t[0])
    rows = [r for r in rows if r[0]]
    if not rows:
        return {"status": "unknown", "answer": "None of the imported CVs names an employer."}
    lines = []
    for n, p in rows[:TOP]:
        f = _primary(index, p)
        emp = distinct_employers(f)
        names = [f.record["experiences"][i]["company"] for i in emp.values()]
        mark = book.cite(book.facts.role_chunk(f.candidate_id, next(iter(emp.values()))), "text", names[0])
        lines.append(f"{index.display(p)}: {n} employers ({', '.join(names[:10])}){mark}")
    return _answer("Most different employers:", lines, [_primary(index, rows[0][1]).candidate_id])


def shared_employers(book: EvidenceBook, index: PeopleIndex) -> dict:
    """Employers that two or more different people worked for."""
    seen: dict[str, list[tuple[Person, CandidateFacts, int]]] = {}
    for p in index.refresh().people.values():
        f = _primary(index, p)
        for k, i in distinct_employers(f).items():
            seen.setdefault(k, []).append((p, f, i))
    shared = sorted(((k, v) for k, v in seen.items() if len(v) >= 2), key=lambda kv: -len(kv[1]))
    if not shared:
        return {"status": "unknown", "answer": "No employer appears on the CVs of two different people."}
    lines, ids = [], []
    for _, group in shared[:10]:
        name = group[0][1].record["experiences"][group[0][2]]["company"]
        who = "; ".join(f"{index.display(p)}: {role_line(book, f, i, f.record['experiences'][i])}"
                        for p, f, i in group[:SHOWN_PER_GROUP])
        more = f"; and {len(group) - SHOWN_PER_GROUP} more" if len(group) > SHOWN_PER_GROUP else ""
        lines.append(f"{name} ({len(group)} people) — {who}{more}")
        ids += [f.candidate_id for _, f, _ in group]
    return _answer("Employers shared by different candidates:", lines, ids)


def duplicates(book: EvidenceBook, index: PeopleIndex) -> dict:
    """People with more than one document in the library."""
    many = [p for p in index.refresh().people.values() if len(p.documents) > 1]
    if not many:
        return {"status": "unknown", "answer": "Every imported CV belongs to a different person (no one is in twice)."}
    lines, ids = [], []
    for p in many:
        files = []
        for cid in p.documents:
            f = index.doc(cid)
            files.append(os.path.basename(f.source_path or cid) + book.cite(next(iter(book.facts.chunks(cid)), None),
                                                                            "text", f.name))
            ids.append(cid)
        lines.append(f"{p.label}: {len(files)} files — " + ", ".join(files))
    namesakes = sum(1 for ps in index.by_key.values() if len(ps) > 1)
    note = f"\n({namesakes} name(s) are shared by different people, told apart by employer, e-mail or phone.)" \
        if namesakes else ""
    result = _answer("The same person with more than one CV file:", lines, ids)
    return {**result, "answer": result["answer"] + note}


def shared_contacts(book: EvidenceBook, index: PeopleIndex) -> dict:
    """E-mail addresses or phone numbers that appear on the CVs of different people."""
    seen: dict[str, list[tuple[Person, str, str]]] = {}
    for p in index.refresh().people.values():
        f = _primary(index, p)
        for kind, key in (("emails", normalize_key), ("phones", lambda v: re.sub(r"\D", "", v))):
            for v in f.record.get(kind, []):
                k = key(v)
                if len(k) >= 6 and all(q is not p for q, _, _ in seen.get(k, [])):
                    seen.setdefault(k, []).append((p, kind, v))
    shared = [(k, v) for k, v in seen.items() if len(v) >= 2]
    if not shared:
        return {"status": "unknown", "answer": "No e-mail address or phone number appears on two people's CVs."}
    lines, ids = [], []
    for _, group in shared:
        parts = []
        for p, kind, v in group:
            f = _primary(index, p)
            parts.append(index.display(p) + book.cite(book.facts.chunk_for(f.candidate_id, kind, v), "text", v))
            ids.append(f.candidate_id)
        lines.append(f"{group[0][2]}: " + "; ".join(parts))
    return _answer("Contacts shared by different candidates:", lines, ids)


def newest_cv(book: EvidenceBook, index: PeopleIndex, newest: bool) -> dict:
    """Whose CV carries the latest (or earliest) date of its own ("Last updated …", a dated signature)."""
    rows = []
    for p in index.refresh().people.values():
        for cid in p.documents:
            found = cv_date(book.facts.chunks(cid))
            if found:
                rows.append((found[0], p, cid, found[1], found[2]))
                break
    if not rows:
        return {"status": "unknown", "answer": "None of the imported CVs prints the date it was written or updated."}
    rows.sort(key=lambda t: t[0], reverse=newest)
    lines = [f"{index.display(p)}: “{line}” ({d.isoformat()[:7]})" + book.cite(chunk, "text", line)
             for d, p, cid, line, chunk in rows[:TOP]]
    word = "most recently" if newest else "longest ago"
    return _answer(f"CVs by the date they print, updated {word} first:", lines, [rows[0][2]])


def mention_count(book: EvidenceBook, index: PeopleIndex, phrase: str) -> dict:
    """How many people's CVs mention a word or phrase anywhere."""
    key = fold(phrase)
    hits = []
    for p in index.refresh().people.values():
        for cid in p.documents:
            chunk = next((c for c in book.facts.chunks(cid) if has_phrase(fold(c.text), key)), None)
            if chunk:
                hits.append((p, chunk))
                break
    if not hits:
        return {"status": "unknown", "answer": f"No imported CV mentions “{phrase}” (0 candidates)."}
    lines = [index.display(p) + book.cite(c, "text", phrase) for p, c in hits]
    return _answer(f"{len(hits)} candidate{'s' if len(hits) != 1 else ''} mention “{phrase}”:", lines,
                   [c.candidate_id for _, c in hits], count=len(hits))



def _count_of(book: EvidenceBook, f: CandidateFacts, what: str) -> tuple[int, str]:
    """How many of ``what`` a document lists, and the citation marker of where."""
    if what == "publications":
        n, chunk = publication_count(book.facts.chunks(f.candidate_id))
        return n, book.cite(chunk, "text", "publications") if chunk else ""
    field = "education" if what == "degrees" else what
    values = [e for e in f.record.get(field, []) if (e.get("degree") if field == "education" else e)]
    if not values:
        return 0, ""
    first = values[0]["degree"] if field == "education" else values[0]
    kind = field if field in ("skills", "languages") else "text"
    return len(values), book.cite(book.facts.chunk_for(f.candidate_id, field if field != "education" else
                                                       "education[0].degree", first, field), kind, first)


def most_of(book: EvidenceBook, index: PeopleIndex, what: str) -> dict:
    """Who lists the most certifications / languages / skills / degrees / publications."""
    rows = []
    for p in index.refresh().people.values():
        n, mark = _count_of(book, _primary(index, p), what)
        if n:
            rows.append((n, p, mark))
    if not rows:
        return {"status": "unknown", "answer": f"None of the imported CVs lists {what}."}
    rows.sort(key=lambda t: -t[0])
    lines = [f"{index.display(p)}: {n} {what}{mark}" for n, p, mark in rows[:TOP]]
    return _answer(f"Most {what} listed:", lines, [rows[0][1].primary], count=rows[0][0])


def degree_subject(book: EvidenceBook, index: PeopleIndex, level: str, subject: str) -> dict:
    """People holding a degree of ``level`` whose printed degree names the subject ("maths" ~ "Mathematics")."""
    stems = [w[:-1] if len(w) > 4 and w.endswith("s") else w for w in fold(subject).split()]
    hits = []
    for p in index.refresh().people.values():
        f = _primary(index, p)
        for i, ed in enumerate(f.record.get("education", [])):
            text = " ".join(x for x in (ed.get("degree"), ed.get("field")) if x)
            words = fold(text).replace(".", " ").split()
            if degree_level(ed.get("degree") or "") == level and all(any(w.startswith(s) for w in words)
                                                                     for s in stems):
                mark = book.cite(book.facts.chunk_for(f.candidate_id, f"education[{i}].degree", ed["degree"],
                                                      "education"), "text", ed["degree"])
                hits.append(f"{index.display(p)}: {ed['degree']}" + (f", {ed['institution']}" if ed.get("institution")
                                                                      else "") + mark)
                break
    what = f"a {LEVEL_WORDS.get(level, level)} in {subject}"
    if not hits:
        return {"status": "unknown", "answer": f"No imported CV lists {what}."}
    return _answer(f"{len(hits)} candidate{'s' if len(hits) != 1 else ''} with {what}:", hits, [], count=len(hits))


def in_country(book: EvidenceBook, index: PeopleIndex, iso: str, education: bool) -> dict:
    """People who studied (or are based) in a country, read through the gazetteer from the places they print.

    "Universität Bonn" or "University of Bremen" is Germany; "San Francisco, CA" is the
    United States. Education reads the education section's lines; otherwise the stated
    location, the CV's top lines, and then the country code of a phone number ("+33 …").
    """
    hits = []
    for p in index.refresh().people.values():
        for cid in p.documents:
            f = index.doc(cid)
            chunks = book.facts.chunks(cid)
            if education:
                pool = [c for c in chunks if c.section == "education"]
            else:
                pool = chunks[:1]
                loc = f.record.get("location") if f else None
                if loc and iso in countries_of_places(loc):
                    pool = [book.facts.chunk_for(cid, "location", loc), *pool]
                phone = next((ph for ph in (f.record.get("phones", []) if f else []) if country_of_phone(ph) == iso), None)
                if phone and not any(iso in countries_of_places(c.text[:400]) for c in pool if c is not None):
                    chunk = book.facts.chunk_for(cid, "phones", phone)
                    hits.append(f"{index.display(p)}: phone “{phone}”" + book.cite(chunk, "text", phone))
                    break
            found = next(((c, ln) for c in pool if c is not None for ln in c.text.splitlines()[:40]
                          if iso in countries_of_places(ln)), None)
            if found:
                line = " ".join(found[1].split())[:120]
                hits.append(f"{index.display(p)}: “{line}”" + book.cite(found[0], "text", line))
                break
    where = country_name(iso)
    what = f"who studied in {where}" if education else f"based in {where}"
    if not hits:
        return {"status": "unknown", "answer": f"No imported CV shows a candidate {what} (read from the places the "
                f"CVs print).", "data": {"count": 0}}
    return _answer(f"{len(hits)} candidate{'s' if len(hits) != 1 else ''} {what} (from the places their CVs print):",
                   hits, [], count=len(hits))
