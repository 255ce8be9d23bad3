"""Education entries: degrees (or other qualifications) paired with the institutions that gave them.

A qualification is found by vocabulary (degree words in many languages); an entry whose
institution is known but whose qualification has no degree word ("Exchange Semester",
"Ensino Secundário", a bootcamp's course name) still has one: the entry's own unclassified
header line, so that the next entry's degree is never paired with this institution.
"""

from __future__ import annotations

import re

from cvrag_desktop.domain import Education
from cvrag_desktop.ingestion.fields.cells import is_location, split_commas
from cvrag_desktop.ingestion.fields.dates import find_date_ranges
from cvrag_desktop.ingestion.fields.entries import _AT, RawEntry, header_fragments, segment_entries
from cvrag_desktop.ingestion.fields.history import Piece, strip_event, tidy_text
from cvrag_desktop.ingestion.fields.role_text import HONOURS, not_a_degree
from cvrag_desktop.ingestion.layout.reading_order import TextLine
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from cvrag_desktop.text.vocab.places import country_in_text, is_place_name

# A school level printed on its own ("SECONDARY SCHOOL" above the school's name) is the qualification,
# while "Lincoln High School" is an institution.
_SCHOOL_LEVEL = re.compile(r"^(?:upper\s+|lower\s+)?(?:secondary|high|grammar|middle)\s+school(?:\s+diploma)?$", re.I)
# Lines in an education entry that describe it rather than name its qualification.
_NOT_QUALIFICATION = re.compile(r"^(?:(?:grade|note|mark|score)s?\s*:?\s*[\d.,/]+\s*$|gpa|cgpa|percentage|focus|major|"
                                r"minor|majors|speciali[sz]ation|concentration|emphasis|"
                                r"coursework|courses|relevant|thesis|advisor|supervisor|honou?rs|award|"
                                r"scholarship|languages?|activities|societies|expected|grad(?:uated|\.)?)\b", re.I)


def _qualification_line(text: str) -> bool:
    """Can this unclassified header piece of an education entry name its qualification?"""
    t = text.strip()
    words = t.split()
    return (1 <= len(words) <= 8 and t[:1].isupper() and ":" not in t and not is_location(t)
            and not is_place_name(t) and not (country_in_text(t) and len(words) <= 2) and not not_a_degree(t)
            and not find_date_ranges(t) and not re.search(r"\d{3}|[/%]", t) and not _NOT_QUALIFICATION.match(t)
            and not (len(words) == 1 and len(t) > 24 and ("&" in t or t.isupper())))  # an OCR heading run together


def _education_line(text: str) -> bool:
    """A body line that still names a degree or school near its start (long single-line entries)."""
    lex = load_lexicon()
    t = re.sub(r"^\s*[•·▪●◦‣■\-*–—]\s*", "", text)
    if not t[:1].isupper():
        return False
    head = " ".join(t.split()[:3])
    return bool(lex.degree_re.match(t) or lex.institution_re.search(head) or
                (lex.degree_re.search(head) and find_date_ranges(t)))


# "RWTH Aachen", "ETH Zürich", "UPM Madrid": a school known by its initials, after a degree's comma
_ACRONYM_SCHOOL = re.compile(r"^[A-ZÄÖÜ]{2,6}(?:\s+[A-ZÀ-Ý][^\W\d_]+(?:-[A-ZÀ-Ý][^\W\d_]+)?){1,3}$")


def _with_dashed_fields(lines: list[TextLine], frags: list[Piece]) -> list[Piece]:
    """Join a bare degree and the subject printed after a dash on its line ("Studia I stopnia – Matematyka",
    "BSc - Nursing"): header splitting cut them apart at the dash, and the subject is no institution."""
    lex = load_lexicon()
    out: list[Piece] = []
    for text, i in frags:
        if out and out[-1][1] == i:
            prev = out[-1][0]
            lead = lex.degree_re.match(prev)
            # "Technik – Żywienie, Szkoła Policealna": the subject is the part before the school's comma
            subject, comma, rest = text.partition(", ")
            if not (comma and lex.institution_re.search(rest) and not lex.institution_re.search(subject)):
                subject, rest = text, ""
            if lead and lead.end() >= len(prev.rstrip(". ")) - 1 and not lex.degree_re.search(subject) \
                    and not lex.institution_re.search(subject) and not is_location(subject) \
                    and not is_place_name(subject) and not re.search(r"\d", subject) and len(subject.split()) <= 6 \
                    and re.search(re.escape(prev) + r"\s*[–—-]\s*" + re.escape(subject), lines[i].text):
                out[-1] = (f"{prev} – {subject}", i)
                if rest:
                    out.append((rest, i))
                continue
        out.append((text, i))
    return out


def parse_education(lines: list[TextLine], idx: list[int]) -> list[tuple[Education, dict[str, int]]]:
    """Degrees and institutions in an education section, paired in reading order."""
    lex = load_lexicon()
    records: list[dict] = []
    cur: dict | None = None

    def new() -> dict:
        rec: dict = {"where": {}}
        records.append(rec)
        return rec

    for entry in segment_entries(lines, idx):
        scan = entry.header + [i for i in entry.body if _education_line(lines[i].text)]
        dates = entry.dates
        if cur is not None and "dates" in cur and entry.dates is not None:
            cur = None  # the previous entry was closed by its dates: this entry's pieces are its own
        first_record = len(records)
        leftovers: list[Piece] = []  # header pieces no rule used: the qualification when nothing else is
        for text, i in _with_dashed_fields(lines, header_fragments(lines, RawEntry(header=scan))):
            at = _AT.match(text)
            if at and (lex.degree_re.search(at.group(1)) or (
                    i in entry.header and _qualification_line(at.group(1)) and at.group(2)[:1].isupper()
                    and not lex.institution_re.search(at.group(1)))):
                # "BA Mathematics @ University of Florida": the degree, then where it was taken
                cur = new()
                cur["degree"], cur["institution"] = tidy_text(at.group(1)), tidy_text(split_commas(at.group(2))[0])
                cur["where"].update(degree=i, institution=i)
                cur["inst_frag"] = (text, i)
                continue
            parts = split_commas(text) if not lex.degree_re.search(text) or lex.institution_re.search(text) \
                or _ACRONYM_SCHOOL.match(text.rsplit(",", 1)[-1].strip()) else [text]
            parts = [q for p in parts for q in re.split(r"\s*[;；]\s*", p) if q]
            pending: Piece | None = None  # a subject printed before its school ("Computer Science; X University")
            for n, part in enumerate(parts):
                deg = lex.degree_re.search(part)
                part = strip_event(part)
                deg = lex.degree_re.search(part) if not (not_a_degree(part) or not_a_degree(lines[i].text)) else None
                inst = lex.institution_re.search(part) or (
                    _ACRONYM_SCHOOL.match(part) if n > 0 and lex.degree_re.match(parts[0]) else None)
                if _SCHOOL_LEVEL.match(part):
                    deg, inst = re.match(r".+", part), None
                if deg and inst and not part.isascii() and inst.end() <= deg.start():
                    # "履歴書大学履歴書学部": institution then faculty/degree, no separator
                    degree_text, inst_text = part[inst.end():].strip(), part[: inst.end()].strip()
                elif deg and inst and deg.start() == 0 and deg.end() < inst.start():
                    # "PhD Princeton University": degree token glued to the institution
                    degree_text, inst_text = part[: deg.end()].strip(), part[deg.end():].strip()
                elif deg and not (inst and inst.start() < deg.start()):
                    degree_text, inst_text = part, None
                elif inst:
                    degree_text, inst_text = None, part
                else:
                    if cur is not None and cur.get("bare") and cur["where"].get("degree") == i and n > 0 \
                            and _qualification_line(part) and len(part.split()) >= 2:
                        # "B.Tech, Computer Science and Engineering, X Institute": the field beside the degree
                        cur["degree"] = f"{cur['degree']} in {tidy_text(part)}"
                        cur["bare"] = False
                    elif cur is not None and cur.get("institution") and "field" not in cur and n > 0 \
                            and cur.get("inst_frag") == (text, i) and not is_location(part) and len(part.split()) >= 2:
                        cur["field"] = part  # "Princeton University, Computer Science"
                    elif cur is not None and cur.get("bare") and cur.get("institution") \
                            and i > cur["where"].get("degree", i) \
                            and not is_location(part) and 1 <= len(part.split()) <= 6 and part[:1].isupper() \
                            and not find_date_ranges(part) and not _NOT_QUALIFICATION.match(part):
                        # "M.Sc. cum laude" / "Marine biology": the field on the next line
                        cur["degree"] = f"{cur['degree']} in {tidy_text(part)}"
                        cur["bare"] = False
                    elif n == 0 and len(parts) > 1 and not is_location(part) and not find_date_ranges(part) \
                            and not re.search(r"\d", part) and (len(part.split()) <= 5 if part.isascii() else len(part) <= 15):
                        pending = (part, i)
                    elif i in entry.header and not not_a_degree(lines[i].text):
                        leftovers.append((part, i))  # not from a thesis or project line ("Master Project - X")
                    continue
                if degree_text:
                    if cur is None or cur.get("degree"):
                        cur = new()
                    cur["degree"] = tidy_text(HONOURS.sub("", degree_text))
                    cur["where"]["degree"] = i
                    level = lex.degree_re.match(cur["degree"])
                    cur["bare"] = bool(level and level.end() >= len(cur["degree"].rstrip(". ")) - 1)
                if inst_text:
                    if cur is None or cur.get("institution"):
                        cur = new()
                    cur["institution"] = tidy_text(inst_text)
                    cur["where"]["institution"] = i
                    cur["inst_frag"] = (text, i)
                    if pending is not None and not cur.get("degree"):
                        cur["degree"], cur["where"]["degree"] = tidy_text(pending[0]), pending[1]
                    pending = None
        _name_unnamed_qualification(records[first_record:], leftovers)
        if dates is not None and cur is not None and "dates" not in cur:
            cur["dates"] = dates
    out = []
    for rec in records:
        d = rec.get("dates")
        out.append(
            (
                Education(
                    degree=rec.get("degree"),
                    field=rec.get("field"),
                    institution=rec.get("institution"),
                    start=d.start if d else None,
                    end=d.end if d else None,
                ),
                rec["where"],
            )
        )
    return out


def _name_unnamed_qualification(new_records: list[dict], leftovers: list[Piece]) -> None:
    """One record from an entry that lacks a side: its first plausible unused header piece names it.

    An institution with no degree word beside it: the piece is the qualification ("International
    exchange program", "Ensino Secundário"). A degree with no institution word: the piece is the
    school ("UNICAMP", an acronym above the degree).
    """
    if len(new_records) != 1:
        return
    rec = new_records[0]
    side = "degree" if rec.get("institution") and not rec.get("degree") else \
        "institution" if rec.get("degree") and not rec.get("institution") else None
    if side is None or (side == "degree" and len(rec["institution"].split()) < 2):
        return  # a lone "School" cut from a wrapped line is not enough to name what was studied there
    for part, i in leftovers:
        if _qualification_line(part) and part not in (rec.get("institution"), rec.get("degree")):
            rec[side] = tidy_text(HONOURS.sub("", part))
            rec["where"][side] = i
            return
