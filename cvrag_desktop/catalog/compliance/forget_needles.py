"""What identifies a forgotten person in any copy of their data: the needles forget looks for.

Forget deletes rows, then must find the person wherever a copy survives: chat threads that cite
or name them, catalog backups, copies a repair set aside. Each of those searches uses the same
strings, chosen here once: the candidate id, name, e-mails and phones, the ids of their chunks and
the long lines of their CV (a quote, not a common phrase). The journal (``catalog/db.py``), the
forget steps (``catalog/compliance/forget.py``) and the leftovers (``catalog/compliance/leftovers.py``)
all read them from this module, which imports nothing of the project.
"""

from __future__ import annotations

import contextlib
import json

MIN_LINE = 24  # characters: a CV line this long quoted in a chat answer is a quote, not a common phrase
MAX_LINES = 400
VERIFY_LINES = 20  # unique CV lines searched for in a scrubbed copy (besides name, e-mails, phones, ids)


def needles_of(candidate_id: str, row: dict, chunks: list[tuple[str, str]], file: tuple) -> list[str]:
    """Strings whose presence in a chat thread means it cites or names the candidate."""
    out = identity_of(candidate_id, row)
    lines: list[str] = []
    for chunk_id, text in chunks:
        out.append(chunk_id)
        lines += [ln.strip() for ln in (text or "").splitlines() if len(ln.strip()) >= MIN_LINE]
    out += lines[:MAX_LINES]
    out += [str(v) for v in file if v]
    return out


def identity_of(candidate_id: str, row: dict) -> list[str]:
    """The strings that identify the person in any copy: id, name, e-mails, phones (verified gone after forget)."""
    out = [candidate_id]
    name = (row.get("name") or "").strip()
    if len(name) >= 4:
        out.append(name)
    for key in ("emails", "phones"):
        with contextlib.suppress(ValueError):
            out += [v for v in json.loads(row.get(key) or "[]") if isinstance(v, str) and len(v) >= 5]
    return out


def needle_bytes(needles: list[str]) -> list[bytes]:
    """The byte forms a needle takes in a stored blob: lower-case UTF-8 and JSON with \\u escapes."""
    forms: set[bytes] = set()
    for n in needles:
        n = n.lower()
        forms.add(n.encode("utf-8"))
        forms.add(json.dumps(n)[1:-1].encode("ascii"))  # JSON with \\u escapes
    return [f for f in forms if len(f) >= 4]


def blob_mentions(blob: bytes | str | None, needles: list[bytes]) -> bool:
    """True when any needle occurs in the (lower-cased) blob."""
    if blob is None:
        return False
    data = blob.encode("utf-8") if isinstance(blob, str) else bytes(blob)
    data = data.lower()
    return any(n in data for n in needles)


def identity_bytes(entry: dict) -> list[bytes]:
    """What must not be found in a copy after forget: the person's identity strings and a few unique lines."""
    strings = list(entry.get("identity") or [])
    strings += [n for n in entry.get("candidate_ids") or []]
    strings += [n for n in entry.get("needles") or [] if "@" in n and " " not in n]  # e-mails (old journals)
    strings += [n for n in entry.get("needles") or [] if len(n) >= MIN_LINE and " " in n][:VERIFY_LINES]
    return sorted({s.lower().encode("utf-8") for s in strings if len(s) >= 4})
