"""What a job match leads to: the matrix as CSV, the top N as a shortlist, and the
requirement phrases of the description that no column was read from.
"""

from __future__ import annotations

import re
from pathlib import Path

from cvrag_desktop.catalog.csv_export import neutralise, write_csv_table
from cvrag_desktop.catalog.privacy.blind import row_pseudonym

STATUS_TEXT = {"met": "met", "not_met": "not met", "unknown": "unknown"}
LIST_LINE = re.compile(r"^\s*(?:[-*•·]\s*)?(?P<label>[^:\n]{2,40}):\s*(?P<items>.+)$")
REQUIREMENT_LABEL = re.compile(r"require|must|need|nice|plus|bonus|skills?|qualif|language|experience|ideal",
                               re.IGNORECASE)
NOISE = re.compile(r"\b(?:fluent|native|strong|good|solid|basic|knowledge of|experience|years?|of|and|or|with|"
                   r"in|a|an|the|degree)\b", re.IGNORECASE)


def matrix_table(result: dict) -> list[list[str]]:
    """Header + one row per ranked candidate: rank, name, score, met/total, each requirement's status."""
    cands = result.get("candidates") or []
    cols = [(cell["requirement"], bool(cell["must"])) for cell in (cands[0]["cells"] if cands else [])]
    unread = list(result.get("unread") or [])  # requirements not interpreted: a column each, never checked
    header = ["Rank", "Candidate", "Score", "Met", *(lbl if must else f"{lbl} (nice)" for lbl, must in cols),
              *(f"Not interpreted: {u}" for u in unread), "Candidate id"]
    table = [header]
    for rank, c in enumerate(cands, start=1):
        cells = [STATUS_TEXT.get(cell["status"], cell["status"]) for cell in c["cells"]]
        table.append([str(rank), c.get("name") or "", str(c["score"]), f"{c['met']}/{c['total']}", *cells,
                      *("not checked" for _u in unread), c["candidate_id"]])
    return [[neutralise(v) for v in row] for row in table]


def pseudonymous(result: dict) -> dict:
    """A job-match result with every candidate under their pseudonym (``Candidate 7F3A`` of the person):
    what a CSV written in blind mode carries, from the GUI or ``--blind`` on the command line."""

    return {**result, "candidates": [{**c, "name": row_pseudonym(c)}
                                     for c in result.get("candidates") or []]}


def write_matrix_csv(result: dict, path: Path) -> int:
    """The matrix to ``path`` (UTF-8 with BOM, formulas inert, atomic); returns the candidate rows written."""
    return write_csv_table(matrix_table(result), path) - 1


def unread_requirements(text: str, labels: list[str]) -> list[str]:
    """Items of the description's requirement lists ("Nice to have: German, Docker") that match no column."""
    known = [lbl.casefold() for lbl in labels]
    out: list[str] = []
    for line in (text or "").splitlines():
        m = LIST_LINE.match(line)
        if not m or not REQUIREMENT_LABEL.search(m.group("label")):
            continue
        for raw in re.split(r"[,;]|\band\b", m.group("items")):
            item = " ".join(raw.strip(" .").split())
            core = " ".join(NOISE.sub(" ", item).split()).casefold()
            if len(core) < 2 or re.fullmatch(r"[\d+\s]*", core):
                continue
            if not any(core in k or k in core for k in known):
                out.append(item)
    return list(dict.fromkeys(out))


def shortlist_name(text: str, existing: list[str]) -> str:
    """"Match: <first line of the description>", made unique among ``existing`` names."""
    first = next((ln.strip() for ln in (text or "").splitlines() if ln.strip()), "job description")
    base = f"Match: {first[:50]}"
    taken = {n.casefold() for n in existing}
    name, n = base, 2
    while name.casefold() in taken:
        name, n = f"{base} ({n})", n + 1
    return name


def top_ids(result: dict, n: int) -> list[str]:
    """The ``n`` best-ranked candidate ids."""
    return [c["candidate_id"] for c in (result.get("candidates") or [])[:max(0, n)]]
