"""Line-level roles for a rendered zoo document: the known values aligned to the lines the product reads.

The PDF is read with the product's own reader (:func:`ingestion.read.extract.extract_document`:
cleaned lines in reading order with bbox, size and weight). Each line gets every field part it
prints (the person's name, headline, a contact value, a section heading, a role's title, employer,
dates or place, a degree or institution, a bullet or the summary, a skill, a spoken language, a
certification, page furniture), matched with rapidfuzz against the values the truth says were
printed; a part must cover at least half of the line, so a bullet that names a skill stays body.
Its ``role`` is the most specific part. A theme reprints dates in its own way ("Jan, 2019"), so
dates are found by shape (years of the truth, month names, "present" words) as well as by value.
Then :mod:`repairs` mends values a template wrapped or repeated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz

from cvrag_desktop.evaluation.zoo.families import CONTENT
from cvrag_desktop.evaluation.zoo.repairs import (
    EUROPASS_NAME_LABELS,
    dehyphenated,
    labelled_name,
    spread_repeats,
    wrapped_name,
    wrapped_values,
)
from cvrag_desktop.evaluation.zoo.roles import (  # re-exported: the roles are read from here too
    BODY,
    CERT,
    CONTACT,
    DATES,
    DEGREE,
    EMPLOYER,
    FURNITURE,
    HEADING,
    HEADLINE,
    INSTITUTION,
    LABEL,
    LANGUAGE,
    LISTED,
    NAME,
    OTHER,
    PLACE,
    PRIORITY,
    SKILL,
    TITLE,
    LineRole,
)
from cvrag_desktop.evaluation.zoo.roles import ROLES as ROLES  # explicit re-exports (older callers)
from cvrag_desktop.evaluation.zoo.roles import found_parts as found_parts
from cvrag_desktop.factory.profiles import factory_data
from cvrag_desktop.ingestion.read.extracted import ExtractedDoc
from cvrag_desktop.text.keys import text_key

# Headings JSON Resume themes print in English whatever the CV's language.
THEME_HEADINGS = ("About", "About Me", "Profile", "Summary", "Work", "Work Experience", "Experience",
                  "Employment", "Education", "Skills", "Languages", "Language", "Certificates",
                  "Certifications", "Awards", "Interests", "Projects", "Volunteer", "References",
                  "Publications", "Contact", "Background", "Personal Information", "Professional Experience",
                  "Professional Skills", "Technical Skills", "Work History", "Employment History")
# Labels and furniture words themes print in English ("Email", "Highlights").
THEME_LABELS = frozenset({"email", "e mail", "phone", "mobile", "telephone", "website", "web", "url", "location",
                          "address", "highlights", "keywords", "courses", "contact", "profiles", "references"})
# Headings the national forms print whatever the CV's headings are (only for those families' documents).
FORM_HEADINGS: dict[str, tuple[str, ...]] = {
    "rirekisho": ("履 歴 書", "学歴・職歴", "学歴", "職歴", "免許・資格", "語学", "スキル", "自己PR", "本人希望記入欄"),
    "lebenslauf": ("Lebenslauf", "Persönliche Daten", "Beruflicher Werdegang", "Ausbildung", "Kenntnisse"),
}
_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
_PAGE = re.compile(r"^(?:page|pagina|seite|pag|strona|p)?\s*\d{1,2}(?:\s*(?:/|of|de|von|di|z|van|sur)\s*\d{1,2})?$")
EXACT = 0.5
# Running furniture a template adds: "Ann Lee - Page 1 of 2", "Last updated in Nov 2026".
_FURNITURE = re.compile(r"(?:^|\s)(?:page|pagina|seite|pag)\s*\d+\s*(?:/|of|de|von|di|sur|z|van)\s*\d+$|^last updated")
_SPELLS = re.compile(r"@|://|www\.|\w\.\w{2,6}/")  # an e-mail or a link on the line
_BULLET = re.compile(r"^[\s•·\-–—*▪◦●○■□➢►>]+")


@lru_cache(maxsize=1)
def _date_words() -> frozenset[str]:
    words = {"present", "current", "now", "today", "ongoing", "since", "to", "until", "heute"}
    for pack in factory_data().languages.values():
        for w in [*pack.months, *pack.months_short, *pack.present, pack.since]:
            words.update(text_key(w).split())
    words.update(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
                  "june", "july"))
    return frozenset(words)


@lru_cache(maxsize=1)
def _all_headings() -> frozenset[str]:
    out = {text_key(h) for h in THEME_HEADINGS}
    for pack in factory_data().languages.values():
        for variants in pack.headings.values():
            out.update(text_key(v) for v in variants)
    return frozenset(out)


def _date_cover(key: str, years: set[str]) -> int:
    """Characters of ``key`` taken by date tokens, when it prints a year of the truth (else 0)."""
    found = set(_YEAR.findall(key))
    if not found or not found & years:
        return 0
    words = _date_words()
    tokens = key.split()
    taken = [t for t in tokens if t.isdigit() or t in words or _YEAR.fullmatch(t)
             or re.fullmatch(r"\d{1,2}[./-]?\d{4}|\d{4}[./-]\d{1,2}|\d+\s*(?:years?|yrs?|months?|mos?)", t)
             or re.fullmatch(r"\d{4}年(?:\d{1,2}月)?", t)]
    return sum(len(t) + 1 for t in taken)


def _compact(text: str) -> str:
    return re.sub(r"[\W_]+", "", text_key(text))


def _hit(fld: str, value: str, key: str, compact: str) -> float:
    """Characters of the line that print ``value`` (all of it, or the line being a wrapped piece of it); 0 if none.

    Contact values are compared without spaces or punctuation and must match exactly (a piece of an
    e-mail wrapped in a sidebar counts when it is at least 8 characters); skills, languages and
    certifications must appear as whole words; the other fields may differ by a few characters. A value
    that is the whole line scores half a character more (:data:`EXACT`), so it wins over a piece of a bullet."""
    v = text_key(value)
    if len(v) < 2 or not key:
        return 0
    if fld in (CONTACT, LABEL):
        cv = _compact(value)
        if len(cv) >= 2 and cv in compact and (fld == CONTACT or cv == compact):
            return len(key) + EXACT if cv == compact else len(key) * len(cv) / max(1, len(compact))
        return len(key) if fld == CONTACT and len(compact) >= 8 and compact in cv else 0
    if v == key:
        return len(key) + EXACT
    if _CJK.search(v) and fld not in (SKILL, LANGUAGE, CERT):  # no spaces between CJK words: by characters
        return _cjk_hit(v, key)
    if len(v) >= 3 and re.search(rf"(?<!\w){re.escape(v)}(?!\w)", key):
        return len(v)
    if fld == NAME:
        return len(key) if fuzz.ratio(v, key) >= 92 and " " in key else 0
    if fld in (SKILL, LANGUAGE, CERT) and len(v) <= len(key):
        return 0
    short, long_ = (v, key) if len(v) <= len(key) else (key, v)
    if len(short) < 6:
        return 0
    score = fuzz.partial_ratio(short, long_)
    if score >= (93 if len(short) < 12 else 88):
        if short is key and not re.search(rf"(?<!\w){re.escape(key.split()[0])}", v):
            return 0  # a piece of the value must start on a word
        return len(short) * score / 101  # below an exact match of the same length
    return 0


def _cjk_hit(v: str, key: str) -> float:
    """A Chinese or Japanese value in a line: contained (a title "看護師長" in "看護師長に昇格"), or the line a
    wrapped piece of it of at least four characters, or nearly all of it (rapidfuzz on characters)."""
    if len(v) >= 2 and v in key:
        return len(v)
    if len(key) >= 4 and key in v:
        return len(key) * 0.99
    short, long_ = (v, key) if len(v) <= len(key) else (key, v)
    if len(short) >= 4 and fuzz.partial_ratio(short, long_) >= 90:
        return len(short) * 0.9
    return 0


def _date_refs(key: str, truth: dict) -> list[str]:
    """Entries whose start year (and end year, when ended) the line prints."""
    found = set(_YEAR.findall(key))
    refs = []
    for kind in ("experiences", "education"):
        for k, item in enumerate(truth.get(kind, [])):
            start, end = (item.get("start") or "")[:4], (item.get("end") or "")[:4]
            if start in found and (not end or end in found or item.get("is_current")):
                refs.append(f"{kind}[{k}]")
    return refs


def _values(truth: dict) -> list[tuple[str, str, str]]:
    """(field, ref, printed value) for every value the document prints (refs in truth order)."""
    pr = truth["zoo"]["printed"]
    out: list[tuple[str, str, str]] = [(NAME, "name", pr["name"])]
    if pr["headline"] and "headline" not in truth["zoo"].get("not_printed", []):
        out.append((HEADLINE, "headline", pr["headline"]))
    for c in pr["contact"]:
        out.append((CONTACT, "contact", c["value"]))
        out.append((LABEL, "contact", c["label"]))
    n_roles, n_eds = len(pr["roles"]), len(pr["education"])
    for k, r in enumerate(pr["roles"]):
        ref = f"experiences[{n_roles - 1 - k if pr['newest_first'] else k}]"
        out += [(TITLE, ref, r["title"]), (EMPLOYER, ref, r["company"]), (DATES, ref, r["period"])]
        if r["location"]:
            out.append((PLACE, ref, r["location"]))
        out += [(BODY, ref, b) for b in r["bullets"]]
    for k, e in enumerate(pr["education"]):
        ref = f"education[{n_eds - 1 - k if pr['newest_first'] else k}]"
        out += [(DEGREE, ref, e["degree"]), (INSTITUTION, ref, e["institution"]), (DATES, ref, e["period"])]
    if pr["summary"]:
        out.append((BODY, "summary", pr["summary"]))
    out += [(SKILL, f"skills[{k}]", s) for k, s in enumerate(pr["skills"])]
    for k, lang in enumerate(pr["languages"]):
        out.append((LANGUAGE, f"languages[{k}]", lang))
        out += [(LANGUAGE, f"languages[{k}]", p) for p in re.split(r"\s+[–-]\s+|\s*[()]\s*", lang) if p.strip()]
    out += [(CERT, f"certifications[{k}]", c) for k, c in enumerate(pr["certifications"])]
    out += [(CERT, f"certifications[{k}]", re.sub(r"\s*\(\d{4}\)$", "", c)) for k, c in enumerate(pr["certifications"])]
    return [(f, r, v) for f, r, v in out if v and v.strip()]


def _truth_years(truth: dict) -> set[str]:
    years = set()
    for item in [*truth.get("experiences", []), *truth.get("education", [])]:
        for k in ("start", "end"):
            if item.get(k):
                years.add(item[k][:4])
    if any(e.get("is_current") for e in truth.get("experiences", [])):
        years.add(str(truth.get("as_of", ""))[:4])
    return years


@dataclass
class _Context:
    """What every line of one document is matched against."""

    values: list[tuple[str, str, str]]
    headings: frozenset[str]
    years: set[str]
    truth: dict
    split_headings: bool = False  # a heading and a value read as one line ("PERSONAL DETAILS Ben Miller")


def _cell_parts(text: str, ctx: _Context) -> tuple[str, dict[str, dict[str, float]]]:
    """The comparison key of a line (or a tab cell of it) and every field part it may print."""
    key = text_key(_BULLET.sub("", text))
    compact = re.sub(r"[\W_]+", "", key)
    parts: dict[str, dict[str, float]] = {}
    if key and key.rstrip(":") in ctx.headings:
        parts[HEADING] = {"": len(key) + EXACT}
    elif key.rstrip(":") in THEME_LABELS:
        parts[LABEL] = {"": len(key) + EXACT}
    for fld, ref, value in ctx.values:
        got = _hit(fld, value, key, compact)
        if got and got > parts.get(fld, {}).get(ref, 0):
            parts.setdefault(fld, {})[ref] = got
    dates = _date_cover(key, ctx.years)
    if dates and DATES not in parts:
        parts[DATES] = dict.fromkeys(_date_refs(key, ctx.truth) or [""], dates)
    return key, parts


def _label_cells(text: str, ctx: _Context, previous: str) -> tuple[list[dict], str]:
    """A line of tab-separated cells (a label/value row, a grid row read across): each cell on its own;
    a short unmatched cell is a label ("Fechas", "Nombre(s) / Apellido(s)")."""
    parts: list[dict] = []
    for cell in text.split("\t"):
        key, found = _cell_parts(cell, ctx)
        got, _ = _resolve(found, key, previous)
        if not got and key and len(key.split()) <= 5 and not any(c.isdigit() for c in key):
            got = [{"field": LABEL, "ref": ""}]
        parts += [p for p in got if p not in parts]
    fields = [f for f in PRIORITY if any(p["field"] == f for p in parts)]
    if not fields or fields == [LABEL]:
        return [], OTHER
    role = next((f for f in fields if f not in (HEADING, LABEL)), fields[0])
    return sorted(parts, key=lambda p: PRIORITY.index(p["field"])), role


def label_lines(doc: ExtractedDoc, truth: dict) -> list[LineRole]:
    """Every line of ``doc`` with its role and parts, from the values of ``truth`` (a zoo truth record)."""
    form = {text_key(h) for h in FORM_HEADINGS.get(truth["zoo"].get("template", ""), ())}
    ctx = _Context(_values(truth), _all_headings() | form
                   | {text_key(h) for h in truth["zoo"]["printed"]["headings"].values()}, _truth_years(truth), truth,
                   split_headings=truth["zoo"].get("family") in CONTENT)
    out: list[LineRole] = []
    previous = ""
    for i, ln in enumerate(doc.lines):
        lr = LineRole(i, ln.page, tuple(ln.bbox), ln.size, bool(ln.bold), ln.text)
        key, parts = _cell_parts(dehyphenated(doc, i), ctx)
        lr.parts, lr.role = _resolve(parts, key, previous, spelled=bool(_SPELLS.search(ln.text)))
        if _FURNITURE.search(key):
            lr.parts, lr.role = [], FURNITURE
        elif "\t" in ln.text.strip() and lr.role not in (NAME, HEADING):
            lr.parts, lr.role = _label_cells(ln.text.strip(), ctx, previous)
        if lr.role == OTHER and ctx.split_headings:
            lr.parts, lr.role = _after_heading(key, ctx, previous)
        if lr.role == OTHER and _PAGE.fullmatch(key):
            lr.role = FURNITURE
        previous = next((p["ref"] for p in lr.parts if p["ref"].startswith(("exp", "edu"))), previous)
        out.append(lr)
    spread_repeats(out, ctx.values)  # what the template broke or repeated (repairs.py)
    wrapped_values(out, ctx.values)
    name = text_key(truth["zoo"]["printed"]["name"] or "")
    wrapped_name(out, name)
    labelled_name(out, name, ctx.headings | THEME_LABELS | {text_key(x) for x in EUROPASS_NAME_LABELS})
    _headline_or_title(out)
    return out


def _after_heading(key: str, ctx: _Context, previous: str) -> tuple[list[dict], str]:
    """A section name and a value the reader joined into one line (a Europass label cell beside the name):
    the value's parts, and the heading. Only for the families added with issue 36's content, so the
    roles of the first 45 families stay as they were."""
    for h in sorted((h for h in ctx.headings if h and key.startswith(h + " ")), key=len, reverse=True):
        rest = key[len(h) + 1:]
        got, role = _resolve(_cell_parts(rest, ctx)[1], rest, previous)
        if got:
            return [{"field": HEADING, "ref": ""}, *got], role
    return [], OTHER


def _pick(refs: dict[str, float], others: set[str], previous: str) -> tuple[str, float]:
    """The longest match; on a tie, the entry another part of the line names, else the line above's entry."""
    top = max(refs.values())
    tied = sorted(r for r, n in refs.items() if n == top)
    for r in tied:
        if r in others:
            return r, top
    return (previous if previous in tied else tied[0]), top


def _resolve(parts: dict[str, dict[str, float]], key: str, previous: str, *, spelled: bool = False
             ) -> tuple[list[dict], str]:
    """Keep the parts that together cover at least half the line; the role is the most specific.
    ``spelled``: the line holds an e-mail or a link, which may spell the name."""
    if not parts or not key:
        return [], OTHER
    if HEADING in parts and max(parts[HEADING].values()) > len(key):
        return [{"field": HEADING, "ref": ""}], HEADING
    tops = {f: max(r.values()) for f, r in parts.items()}
    exact = [f for f, n in tops.items() if n > len(key)]
    if exact:  # the line is exactly one value (a skill in a list, a link): not a piece of a bullet
        parts = {f: parts[f] for f in exact}
        tops = {f: tops[f] for f in exact}
    listed = sum(n for f in LISTED if f in parts for n in parts[f].values())
    if listed >= 0.7 * len(key):  # a row of skills (or languages) the summary also names
        parts = {f: parts[f] for f in parts if f in LISTED}
    elif BODY in parts and tops[BODY] >= 0.8 * len(key):  # a bullet or the summary naming a skill or title
        parts = {BODY: parts[BODY]}
    if NAME in parts and CONTACT in parts and tops[NAME] <= len(key) and (spelled or tops[CONTACT] >= 0.6 * len(key)):
        del parts[NAME]  # a link or e-mail spelling the name (not a name printed beside the city)
    elif NAME in parts and tops[NAME] >= 0.8 * len(key):
        parts = {NAME: parts[NAME]}
    best: dict[str, list[tuple[str, float]]] = {}
    for f, refs in parts.items():
        if f in LISTED:  # several skills or languages on one line: each is a part
            best[f] = sorted(refs.items())
        else:
            others = {r for g, rs in parts.items() if g != f for r in rs}
            best[f] = [_pick(refs, others, previous)]
    covered = sum(n for picks in best.values() for _, n in picks)
    if covered < 0.5 * len(key):
        return [], OTHER
    fields = [f for f in PRIORITY if f in best]
    role = next((f for f in fields if f != HEADING), fields[0])
    return [{"field": f, "ref": r} for f in fields for r, _ in best[f]], role


def _headline_or_title(lines: list[LineRole]) -> None:
    """A headline equal to a role title: only the first one above every entry is the headline (above in
    reading order, or higher on the first page than any entry: a header read after a sidebar)."""
    entries = [ln for ln in lines if ln.role in (EMPLOYER, DATES, DEGREE, INSTITUTION)]
    first_entry = entries[0].i if entries else len(lines)
    top = min((ln.bbox[1] for ln in entries if ln.page == 0), default=float("inf"))
    seen = False
    for ln in lines:
        fields = [p["field"] for p in ln.parts]
        dated = any(p["field"] == DATES and p["ref"] for p in ln.parts)  # an entry header, not the headline
        if HEADLINE in fields and (seen or dated or (ln.i > first_entry and not (ln.page == 0 and ln.bbox[3] <= top))):
            ln.parts = [p for p in ln.parts if p["field"] != HEADLINE]
            left = [p["field"] for p in ln.parts]
            ln.role = next((f for f in PRIORITY if f in left and f != HEADING), HEADING if left else OTHER)
        elif HEADLINE in fields:
            seen = True
            ln.parts = [p for p in ln.parts if p["field"] in (HEADLINE, NAME)]
            ln.role = ln.parts[0]["field"] if ln.parts[0]["field"] == NAME else HEADLINE


def value_recall(found: dict[str, set[str]], truth: dict) -> dict[str, tuple[int, int]]:
    """Per field: (values of the truth found on some labelled line, values printed): the alignment's own check."""
    pr = truth["zoo"]["printed"]
    exps, eds = truth.get("experiences", []), truth.get("education", [])
    wanted = {NAME: {"name"} if pr["name"] else set(), TITLE: {f"experiences[{k}]" for k, e in enumerate(exps) if e.get("title")},
              EMPLOYER: {f"experiences[{k}]" for k, e in enumerate(exps) if e.get("company")},
              DEGREE: {f"education[{k}]" for k, e in enumerate(eds) if e.get("degree")},
              INSTITUTION: {f"education[{k}]" for k, e in enumerate(eds) if e.get("institution")},
              SKILL: {f"skills[{k}]" for k in range(len(pr["skills"]))}}
    if pr["headline"] and "headline" not in truth["zoo"].get("not_printed", []):
        wanted[HEADLINE] = {"headline"}
    return {f: (len(w & found.get(f, set())), len(w)) for f, w in wanted.items()}
