"""CSV export of candidates (a shortlist or the current filtered view).

The file is UTF-8 with a byte-order mark so Excel opens accents and CJK names
correctly, one row per candidate, lists joined with ``"; "``. Any cell that a
spreadsheet would read as a formula (starting with ``= + - @``, a tab or a carriage
return) is prefixed with an apostrophe: CV text is untrusted, and a CV containing
``=HYPERLINK(...)`` must not become a live formula on a hiring manager's machine
(OWASP "CSV injection").
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from cvrag_desktop.catalog.privacy.blind import identifiers, redact_row, redact_text
from cvrag_desktop.errors import InvalidInput

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
LIST_SEPARATOR = "; "

# (header, candidate row key); the order of the columns in the file
COLUMNS: tuple[tuple[str, str], ...] = (
    ("Name", "name"),
    ("Current title", "current_title"),
    ("Current company", "current_company"),
    ("Years of experience", "years_of_experience"),
    ("Skills", "skills"),
    ("Degrees", "degrees"),
    ("Institutions", "institutions"),
    ("Employers", "companies"),
    ("Languages", "languages"),
    ("Location", "location"),
    ("Emails", "emails"),
    ("Phones", "phones"),
    ("Source file", "source_path"),
    ("Candidate id", "id"),
)


def neutralise(value: object) -> str:
    """The cell text for ``value``, made inert if a spreadsheet would evaluate it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        text = "yes" if value else "no"
    elif isinstance(value, float):
        text = f"{value:g}"
    elif isinstance(value, list | tuple | set):
        text = LIST_SEPARATOR.join(str(v) for v in value if v is not None)
    else:
        text = str(value)
    text = text.replace("\x00", "")
    if text.startswith(FORMULA_PREFIXES):
        return "'" + text
    return text


def blind_rows(rows: Iterable[Mapping], notes: Mapping[str, str] | None = None
               ) -> tuple[list[dict], dict[str, str] | None]:
    """Rows and notes for a blind export: pseudonyms, no contacts or location, identifying strings cut from notes."""
    rows = list(rows)
    if notes is not None:
        by_id = {str(r.get("id")): r for r in rows}
        notes = {k: redact_text(v, identifiers(by_id.get(k, {}))) for k, v in notes.items()}
    return [redact_row(r) for r in rows], notes


def candidate_table(rows: Iterable[Mapping], notes: Mapping[str, str] | None = None,
                    blind: bool = False) -> list[list[str]]:
    """Header plus one neutralised row per candidate (with a Note column when ``notes`` is given).

    ``blind`` writes the blind-screening view (see ``catalog/privacy/blind.py``): ``Candidate 7F3A``
    instead of the name, no e-mails, phones, location or source file name.
    """
    if blind:
        rows, notes = blind_rows(rows, notes)
    header = [h for h, _ in COLUMNS]
    if notes is not None:
        header.insert(1, "Note")
    table = [header]
    for row in rows:
        cells = [neutralise(row.get(key)) for _, key in COLUMNS]
        if notes is not None:
            cells.insert(1, neutralise(notes.get(str(row.get("id")), "")))
        table.append(cells)
    return table


def export_candidates_csv(rows: Iterable[Mapping], path: Path, notes: Mapping[str, str] | None = None,
                          blind: bool = False) -> int:
    """Write the candidates to ``path`` atomically (``blind``: identities hidden); returns the rows written."""
    table = candidate_table(rows, notes, blind)
    return write_csv_table(table, path) - 1


def csv_target(path: Path | str) -> Path:
    """The file an export will write: exactly the path given, which must name a ``.csv`` file.

    Every export (candidates, shortlists, job-match matrices, the audit trail) goes through
    here. A path without ``.csv`` is refused rather than silently renamed (a user who typed
    ``/dev/full`` or ``report`` must not get a surprise ``/dev/full.csv`` or ``report.csv``),
    and so is a path that names a folder, a device or a pipe: the export is written beside
    its target and renamed over it, which only a regular file allows.
    """
    path = Path(path)
    if path.suffix.lower() != ".csv":
        raise InvalidInput(f"An export is a CSV file: give a file name ending in .csv (got {path.name or path}).")
    if path.exists() and not path.is_file():
        raise InvalidInput(f"{path} exists and is not a regular file; choose another file name.")
    if not path.parent.is_dir():
        raise InvalidInput(f"No folder {path.parent} to write the export in.")
    return path


def write_csv_table(table: list[list], path: Path | str, dialect: str = "excel") -> int:
    """Write rows (header included) to ``path`` as UTF-8 with a BOM, atomically; returns the rows written.

    The rows go to ``<name>.part`` first and are renamed over the target only once all are
    on disk, so a full disk or a crash never leaves half an export under the chosen name.
    """
    path = csv_target(path)
    tmp = path.with_name(path.name + ".part")
    try:
        with open(tmp, "w", encoding="utf-8-sig", newline="") as fh:
            csv.writer(fh, dialect=dialect, quoting=csv.QUOTE_MINIMAL).writerows(table)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return len(table)
