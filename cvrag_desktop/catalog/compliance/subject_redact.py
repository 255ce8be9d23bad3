"""Keeping everyone else out of a subject-access export: who the subject is, and what names the others.

An access export (``subject_export.py``) is for one person, but the records about them are
shared: a chat answer cites several people, a note compares them with someone, a job
match ranks them together, an audit entry lists every reference shown. :class:`SubjectPeople`
knows, from the catalog, what identifies the subject (to find their lines) and what
identifies every other document (to remove it):

- names (whole, any case, unless the name is, word for word, part of the subject's own name:
  a namesake); each part of three letters or more in any case ("Pike", "pike", "PIKE",
  "pike-shortlist") unless the subject's own name or CV uses that word ("Will", "Rose"); a
  two-letter part ("Ng", "Li") as a name is written (title case) or, in any case, next to
  another part of the same name; e-mails, phones (their last nine digits, however they are
  separated), candidate ids (a person's id is one of them), file hashes and any prefix of
  them of eight hex digits or more (``3f9a2b7c1d4e``, as originals are named), file names
  and distinctive stems (``wpike_cv.pdf``, ``Wendell_Pike_CV``) and blind-mode pseudonyms
  (``Candidate 7F3A-91C2``): replaced by :data:`OTHER` ("another candidate");
- the lines of their CVs (at least :data:`MIN_LINE` characters, not in the subject's own
  CV, not boilerplate: in the CVs of two or more other people): a quote of them, however the
  text breaks or spaces it, is replaced by :data:`QUOTE_DROPPED` (that span only: the rest
  of the text stays). A boilerplate line naming someone still loses the name: the needles
  above find it;
- audit references (``P-`` + 20 hex digits) that are not the subject's: :data:`OTHER`.

The subject's own CV records (the extracted record, chunks, provenance, the original) are
their own words and are not rewritten; everything else is (notes, tags, shortlist names and
notes, job-match titles and requirements, reveal reasons, audit entries, chat turns). Qt-free.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import PurePath, PureWindowsPath

from cvrag_desktop.catalog.privacy.blind import pseudonym

OTHER = "another candidate"
QUOTE_DROPPED = "[a line of another candidate's CV, left out]"
MIN_LINE = 20
MIN_PART = 3
MIN_HEX = 8  # an id prefix this long names one document (originals are exported as ``cid[:12]-name``)
HEX = re.compile(rf"[0-9a-f]{{{MIN_HEX},}}")
REF = re.compile(r"\bP-[0-9a-f]{20}\b")
NAME_PARTICLES = {"von", "van", "der", "den", "del", "della", "dos", "das", "bin", "binti", "ibn", "mrs", "miss"}


def _listed(value) -> list[str]:
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    try:
        got = json.loads(value or "[]")
    except ValueError:
        return []
    return [v for v in got if isinstance(v, str)] if isinstance(got, list) else []


TOKEN = re.compile(r"\w[\w@+\-.'’]*\w|\w")  # a word, an e-mail, an id (no dot or dash at its ends)
NUMBER = re.compile(r"\+?\d[\d\s\-./()]{5,}\d")  # a phone however written (+44 7700 900222, 07700-900222)


def _bare(token: str) -> str:
    """A word without its possessive ("Pike's" -> "Pike")."""
    return token[:-2] if token[-2:] in ("'s", "’s") else token


class _Needles:
    """Strings to find as whole words, looked up per word of a text (fast for thousands of people)."""

    def __init__(self, words: Iterable[str] = (), names: Iterable[str] = (), exact: Iterable[str] = (),
                 phones: Iterable[str] = (), ids: Iterable[str] = (), short: dict[str, set[str]] | None = None,
                 ) -> None:
        self.words = {w.casefold() for w in words if w and len(w) >= 2}  # any case
        self.exact = {w for w in exact if w}  # as written (the subject's name parts: "Will", not "will")
        self.short = short or {}  # a two-letter name part (any case) -> the other parts of its name: found beside one
        self.ids: dict[str, set[str]] = {}  # first MIN_HEX hex digits -> hex ids starting so (a prefix names them)
        for v in ids:
            if v and HEX.fullmatch(v.casefold()):
                self.ids.setdefault(v.casefold()[:MIN_HEX], set()).add(v.casefold())
        self.names: dict[str, list[list[str]]] = {}  # first word -> names of several words (any case)
        for name in names:
            toks = [t.casefold() for t in TOKEN.findall(name or "")]
            if len(toks) > 1:
                self.names.setdefault(toks[0], []).append(toks)
            elif toks:
                self.words.add(toks[0])
        self.tails = {re.sub(r"\D", "", p)[-9:] for p in phones}
        self.tails = {t for t in self.tails if len(t) >= 7}

    def _hit(self, word: str) -> bool:
        """Whether one word is a needle: as written, in any case, or a long enough prefix of an id."""
        key = word.casefold()
        if word in self.exact or key in self.words:
            return True
        return len(key) >= MIN_HEX and any(v.startswith(key) for v in self.ids.get(key[:MIN_HEX], ())) \
            and HEX.fullmatch(key) is not None

    def _beside(self, toks: list, i: int) -> bool:
        """Whether a two-letter name part stands next to another part of the same name ("wendy ng", "NG, Wendy")."""
        others = self.short.get(_bare(toks[i].group()).casefold())
        return bool(others) and any(0 <= j < len(toks) and _bare(toks[j].group()).casefold() in others
                                    for j in (i - 1, i + 1))

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Where the needles are in a text, in order, not overlapping."""
        toks = list(TOKEN.finditer(text))
        found = []
        i = 0
        while i < len(toks):
            t = _bare(toks[i].group())
            key, end = t.casefold(), None
            for name in self.names.get(key, ()):
                if [_bare(x.group()).casefold() for x in toks[i:i + len(name)]] == name:
                    end = i + len(name) - 1
                    break
            if end is None and (self._hit(t) or (self.short and self._beside(toks, i))):
                end = i
            if end is not None:
                found.append((toks[i].start(), toks[end].end()))
            else:  # inside a longer word: "not-like-Pike", "Pike.Wendell", "3f9a2b7c1d4e-wpike_cv.pdf"
                at, word = toks[i].start(), toks[i].group()
                pieces = list(re.finditer(r"[^\W_]+", word)) + (list(re.finditer(r"[^\-/]+", word))
                                                                 if re.search(r"[\-/]", word) else [])
                found += [(at + m.start(), at + m.end()) for m in pieces if self._hit(m.group())]
            i = (end if end is not None else i) + 1
        if self.tails:
            found += [m.span() for m in NUMBER.finditer(text) if re.sub(r"\D", "", m.group())[-9:] in self.tails]
        found.sort()
        merged: list[tuple[int, int]] = []
        for a, b in found:
            if merged and a < merged[-1][1]:
                merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
            else:
                merged.append((a, b))
        return merged

    def sub(self, text: str, by: str) -> str:
        """The text with each needle replaced by ``by``."""
        for a, b in reversed(self.spans(text)):
            text = text[:a] + by + text[b:]
        return text


def _name_parts(name: str) -> list[str]:
    """The words of a name worth finding alone, capitalised (matched as written: "Pike", not "pike")."""
    return [p[0].upper() + p[1:] for p in re.findall(r"[^\W\d_]+", name or "")
            if len(p) >= MIN_PART and p.casefold() not in NAME_PARTICLES]


def _short_parts(name: str) -> list[str]:
    """The two-letter words of a name (``Ng``, ``Li``), title case."""
    return [p[0].upper() + p[1:].lower() for p in re.findall(r"[^\W\d_]+", name or "") if len(p) == 2
            and p.casefold() not in NAME_PARTICLES]


def _within(name: str, own: list[list[str]]) -> bool:
    """Whether a name is, word for word, a run of the subject's own name ("Li Nash" of "Carolina Li Nash";
    not "Li Na")."""
    toks = [t.casefold() for t in TOKEN.findall(name)]
    return bool(toks) and any(mine[k:k + len(toks)] == toks for mine in own for k in range(len(mine) - len(toks) + 1))


def _file_names(path: str | None, name: str | None, parts: set[str]) -> list[str]:
    """A document's file names and, when distinctive (digits, ``_``, ``-``, a space, or a part of the person's
    name: ``wpike_cv``, not ``resume``), their stems."""
    out = []
    for got in {PureWindowsPath(path or "").name, PurePath(name or "").name} - {""}:
        out.append(got)
        stem = PurePath(got).stem
        if stem != got and len(stem) >= 4 and (re.search(r"[\d_\-\s.]", stem)
                                               or any(p in stem.casefold() for p in parts)):
            out.append(stem)
    return out


def _spaced(line: str) -> re.Pattern:
    """A CV line (one space between words) as a pattern finding it however the text breaks or spaces it."""
    return re.compile(r"\s+".join(re.escape(w) for w in line.split()))


def _persons(rows: list[dict]) -> dict[str, str]:
    """Candidate id -> one id per person, documents joined when they share a name, an e-mail or a phone
    (two CVs of one person are one source of a line, not boilerplate; namesakes joined only keep more lines
    out)."""
    parent = {r["candidate_id"]: r["candidate_id"] for r in rows}

    def root(cid: str) -> str:
        while parent[cid] != cid:
            parent[cid] = parent[parent[cid]]
            cid = parent[cid]
        return cid

    seen: dict[str, str] = {}
    for r in rows:
        keys = [f"n:{(r.get('name') or '').casefold().strip()}"] if (r.get("name") or "").strip() else []
        keys += [f"e:{e.casefold()}" for e in _listed(r.get("emails"))]
        keys += [f"p:{t}" for t in (re.sub(r"\D", "", p)[-9:] for p in _listed(r.get("phones"))) if len(t) >= 7]
        for key in keys:
            other = seen.setdefault(key, r["candidate_id"])
            parent[root(r["candidate_id"])] = root(other)
    return {cid: root(cid) for cid in parent}


class SubjectPeople:
    """The subject's identifiers and everyone else's, from the catalog (built once per export)."""

    def __init__(self, catalog, subject_ids: list[str], subject_refs: Iterable[str] = ()) -> None:
        mine = set(subject_ids)
        self.subject_ids = list(subject_ids)
        self.subject_refs = set(subject_refs)
        rows = [dict(r) for r in catalog.query("SELECT candidate_id, file_sha256, name, emails, phones "
                                               "FROM candidates")]
        own = [r for r in rows if r["candidate_id"] in mine]
        others = [r for r in rows if r["candidate_id"] not in mine]
        person = _persons(others)
        own_lines: set[str] = set()
        other_lines: dict[str, str] = {}  # line -> the (first) other person whose CV has it
        shared: set[str] = set()  # lines of two or more other people's CVs: boilerplate, not a quote
        for cid, text in catalog.query("SELECT candidate_id, text FROM chunks"):
            for line in (text or "").splitlines():
                line = " ".join(line.split())
                if cid in mine:
                    own_lines.add(line)
                elif len(line) >= MIN_LINE:
                    who = person.get(cid, cid)
                    if other_lines.setdefault(line, who) != who:
                        shared.add(line)
        own_text = " ".join(own_lines).casefold()
        own_names = [[t.casefold() for t in TOKEN.findall(r["name"])] for r in own if r.get("name")]
        own_parts = {p.casefold() for r in own for p in _name_parts(r.get("name") or "")}
        own_contacts = {v.casefold() for r in own for k in ("emails", "phones") for v in _listed(r.get(k))}
        own_words = set(TOKEN.findall(own_text)) | {t for n in own_names for t in n}
        parts_of = {r["candidate_id"]: {p.casefold() for p in _name_parts(r.get("name") or "")} for r in others}
        files: dict[str, list[str]] = {}  # a document's file names (and their distinctive stems)
        for cid, path, fname in catalog.query("SELECT candidate_id, original_path, file_name FROM files "
                                              "WHERE candidate_id IS NOT NULL"):
            files.setdefault(cid, []).extend(_file_names(path, fname, parts_of.get(cid, set())))
        own_files = {f.casefold() for cid in mine for f in files.get(cid, ())}
        own_ids = {v.casefold() for r in own for v in (r["candidate_id"], r.get("file_sha256")) if v}
        own_blind = {pseudonym(cid) for cid in mine}
        # the subject: to find the lines about them (their name parts as a name is written: "Will", not "will")
        self._mine = _Needles(words=list(own_contacts) + list(mine) + [b.split()[-1] for b in own_blind],
                              exact=[f for p in own_parts for f in (p[0].upper() + p[1:], p.upper())],
                              names=[r["name"] for r in own if r.get("name")],
                              phones=[v for r in own for v in _listed(r.get("phones"))])
        # everyone else, except what the subject shares (a namesake's full name is the subject's own name too)
        blind = {r["candidate_id"]: pseudonym(r["candidate_id"]) for r in others}
        blind = {cid: b for cid, b in blind.items() if b not in own_blind}
        short: dict[str, set[str]] = {}  # two-letter name parts -> the other words of the names they are in
        for r in others:
            for p in _short_parts(r.get("name") or ""):
                if p.casefold() not in own_words:
                    short.setdefault(p.casefold(), set()).update(
                        t.casefold() for t in re.findall(r"[^\W\d_]+", r["name"]) if t.casefold() != p.casefold())
        self._theirs = _Needles(
            words=[v for r in others for v in (r["candidate_id"], r.get("file_sha256"), *_listed(r.get("emails")))
                   if v and v.casefold() not in own_contacts]
            + [p for r in others for p in _name_parts(r.get("name") or "")
               if p.casefold() not in own_parts and p.casefold() not in own_words]
            + [b.split()[-1] for b in blind.values()],  # "7F3A-91C2" alone too
            names=[r["name"] for r in others if r.get("name") and not _within(r["name"], own_names)]
            + [f for r in others for f in files.get(r["candidate_id"], ()) if f.casefold() not in own_files
               and f.casefold() not in own_words]  # "wpike_cv.pdf", "Wendell Pike CV.docx"
            + list(blind.values()),
            exact=[p[0].upper() + p[1:] for p in short],  # "Ng" as a name is written, not "ng" (nor "NG": "NA")
            phones=[v for r in others for v in _listed(r.get("phones")) if v.casefold() not in own_contacts],
            ids=[v for r in others for v in (r["candidate_id"], r.get("file_sha256"))
                 if v and not any(o.startswith(v.casefold()[:MIN_HEX]) for o in own_ids)],
            short=short)
        self._their_lines: dict[str, list[str]] = {}  # first MIN_LINE characters -> the lines, longest first
        for ln in sorted(other_lines.keys() - own_lines - shared, key=len, reverse=True):
            self._their_lines.setdefault(ln[:MIN_LINE], []).append(ln)

    # ---- finding --------------------------------------------------------------------------------
    def names_subject(self, text: str) -> bool:
        """Whether a text names the subject (name or a part of it, e-mail, phone, id)."""
        return bool(self._mine.spans(text or ""))

    def names_others(self, text: str) -> bool:
        """Whether a text names or quotes anyone else."""
        return self.redact_text(text) != (text or "")

    # ---- removing -------------------------------------------------------------------------------
    def _quoted_lines(self, text: str) -> list[str]:
        """Other people's CV lines quoted in a text (whitespace as in the CV: one space), longest first;
        looked up by their first characters at each place of the text, not tried one by one."""
        flat = " ".join(text.split())
        if not self._their_lines or len(flat) < MIN_LINE:
            return []
        found = {ln for i in range(len(flat) - MIN_LINE + 1) for ln in self._their_lines.get(flat[i:i + MIN_LINE], ())
                 if flat.startswith(ln, i)}
        return sorted(found, key=len, reverse=True)

    def redact_text(self, text: str) -> str:
        """The text with everyone else's identifiers replaced by "another candidate", their CV lines dropped."""
        if not text:
            return text
        for line in self._quoted_lines(text):  # found on flattened text; cut from the raw text, whatever spacing
            text = _spaced(line).sub(lambda _m: QUOTE_DROPPED, text)
        text = self._theirs.sub(text, OTHER)
        return REF.sub(lambda m: m.group(0) if m.group(0) in self.subject_refs else OTHER, text)

    def redact(self, value):
        """Every string inside a JSON-able value redacted (not the keys: they are the export's own), the
        structure kept."""
        if isinstance(value, str):
            return self.redact_text(value)
        if isinstance(value, dict):
            return {k: self.redact(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.redact(v) for v in value]
        return value
