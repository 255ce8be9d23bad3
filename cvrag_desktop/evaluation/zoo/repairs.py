"""Mending the alignment where a template breaks or repeats a value (after :func:`align.label_lines`).

A name wrapped over two or three lines of a narrow header, or printed after the Europass grid's label;
an entry value wrapped onto the next line (also after TeX's hyphenation); one title or employer printed
for two entries. Only values no line has yet are looked for, and a repeated value follows the dates the
line prints, so what the alignment found stays as it was.
"""

from __future__ import annotations

import re
from itertools import pairwise

from rapidfuzz import fuzz

from cvrag_desktop.evaluation.zoo.roles import (
    BODY,
    DATES,
    DEGREE,
    EMPLOYER,
    HEADING,
    INSTITUTION,
    NAME,
    OTHER,
    PLACE,
    PRIORITY,
    TITLE,
    LineRole,
    found_parts,
)
from cvrag_desktop.ingestion.read.extracted import ExtractedDoc
from cvrag_desktop.text.keys import text_key

# The Europass grid's label beside the name, in the zoo's languages (europasscv prints it in capitals).
EUROPASS_NAME_LABELS = ("Personal information", "Información personal", "Angaben zur Person",
                        "Informations personnelles", "Informação pessoal", "Informações pessoais",
                        "Informazioni personali", "Informacje osobiste", "Persoonlijke informatie")
_HYPHEN_END = re.compile(r"([^\W\d_]{2})-$")  # "Asocia-": a word broken by TeX's hyphenation

WRAPPED = (TITLE, EMPLOYER, DEGREE, INSTITUTION)


def wrapped_values(lines: list[LineRole], values: list[tuple[str, str, str]]) -> None:
    """An entry value found on no line because it wraps onto the next ("Android Developer, Desarrollo" /
    "Ibérica S.L., Murcia."): when the two lines read together print it, both get the part. Only values
    no line has are looked for, so what was found stays as it was."""
    found = found_parts([ln.row() for ln in lines])
    missing = [(f, r, text_key(v)) for f, r, v in values if f in WRAPPED and r not in found.get(f, set())]
    for fld, ref, v in missing:
        if len(v) < 6:
            continue
        pattern = re.compile(rf"(?<!\w){re.escape(v)}(?!\w)")
        for a, b in pairwise(lines):
            ka, kb = text_key(a.text), text_key(b.text)
            head = b.text.split("\t")[0]  # the cell of ``a`` the value starts in, then ``b``'s first cell
            joined = [text_key(c[:-1] + head if c.endswith("-") else f"{c} {head}") for c in a.text.split("\t")]
            if a.page != b.page or HEADING in (a.role, b.role) or not any(pattern.search(j) for j in joined) \
                    or pattern.search(ka) or pattern.search(kb):
                continue
            for ln in (a, b):
                if {"field": fld, "ref": ref} not in ln.parts:
                    ln.parts = sorted([*ln.parts, {"field": fld, "ref": ref}], key=lambda p: PRIORITY.index(p["field"]))
                ln.role = next(p["field"] for p in ln.parts) if ln.role in (OTHER, BODY, PLACE) else ln.role
            break


def spread_repeats(lines: list[LineRole], values: list[tuple[str, str, str]]) -> None:
    """One value printed for two entries ("Realschule Pinneberg" above each of two roles there): on a
    line that prints an entry's dates it is that entry's; else a later line given an entry an earlier
    line already has goes to the next entry of the same value that no line has yet (a tie is otherwise
    settled by the line above, which is the previous entry when the employer is printed above the title)."""
    found = found_parts([ln.row() for ln in lines])
    by_value: dict[tuple[str, str], list[str]] = {}
    for f, r, v in values:
        if f in WRAPPED:
            by_value.setdefault((f, text_key(v)), []).append(r)
    value_of = {(f, r): k for (f, k), refs in by_value.items() for r in refs}
    used: set[tuple[str, str]] = set()
    for ln in lines:
        anchor = next((p["ref"] for p in ln.parts if p["field"] == DATES and p["ref"]), "")
        for p in ln.parts:
            key = (p["field"], p["ref"])
            if anchor and key in value_of and value_of.get((p["field"], anchor)) == value_of[key]:
                p["ref"] = anchor  # the entry whose dates the line prints (dates are matched by their years)
            elif key in used and key in value_of:
                free = [r for r in by_value[(p["field"], value_of[key])]
                        if r not in found.get(p["field"], set()) and (p["field"], r) not in used]
                if free:
                    p["ref"] = free[0]
                    found.setdefault(p["field"], set()).add(free[0])
            used.add((p["field"], p["ref"]))


def labelled_name(lines: list[LineRole], name: str, labels: frozenset[str]) -> None:
    """A name printed after its label or heading on one line ("PERSONAL INFORMATION Ann Lee", Europass's
    grid read across): the line is the name when no line already is and the rest is a known heading."""
    if len(name) < 4 or any(ln.role == NAME for ln in lines):
        return
    for ln in lines:
        key = text_key(ln.text)
        if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", key) and key.replace(name, " ").strip(" :") in labels:
            ln.parts, ln.role = [{"field": NAME, "ref": "name"}], NAME
            return


def wrapped_name(lines: list[LineRole], name: str) -> None:
    """A name wrapped over two or three lines of one page ("Cornelio" / "Fábregas Guzmán" in a narrow
    header): the lines are the name when no line already is and read together they are the name."""
    if " " not in name or any(ln.role == NAME for ln in lines):
        return
    for k in range(len(lines)):
        for run in (lines[k:k + 2], lines[k:k + 3]):  # two or three lines, one word a line in a narrow header
            if len(run) > 1 and len({ln.page for ln in run}) == 1 and HEADING not in {ln.role for ln in run} \
                    and fuzz.ratio(text_key(" ".join(ln.text for ln in run)), name) >= 92:
                for ln in run:
                    ln.parts, ln.role = [{"field": NAME, "ref": "name"}], NAME
                return


def dehyphenated(doc: ExtractedDoc, i: int) -> str:
    """Line ``i`` with a word TeX hyphenated at its end made whole from the next line ("Asocia-" +
    "dos S.L." -> "Asociados"), so the value it starts can still be matched."""
    text = doc.lines[i].text
    nxt = doc.lines[i + 1] if i + 1 < len(doc.lines) else None
    m = _HYPHEN_END.search(text)
    if m is None or nxt is None or nxt.page != doc.lines[i].page:
        return text
    head = re.match(r"[^\W\d_]+", nxt.text.strip())
    return text[: m.end(1)] + head.group() if head and head.group()[0].islower() else text
