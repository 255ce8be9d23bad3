"""People, not files: which catalog documents belong to one person (Qt-free, shared by browser and chat).

A candidate row is one *document*. Two documents are one person when their names fold to
the same key (titles, post-nominals, possessives, case, diacritics and CJK spacing
removed) and they share an e-mail, phone or employer with nothing contradicting it
(see :func:`same_person`; a misread name is bridged only by e-mail, phone and employer
all shared). The recruiter's own
decisions (``person_links`` in the catalog) go on top: a merge joins documents whatever
the rule says, a split keeps a document away from the ones it was split from.

Each person's documents are ordered newest first (the latest date its history reaches,
then the richest); the first one is the person's primary document and its id is the
person's id.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from cvrag_desktop.text.companies import employer_key
from cvrag_desktop.text.keys import normalize_key
from cvrag_desktop.text.names import name_key

SAME, APART = "same", "apart"


@dataclass(frozen=True)
class DocumentKeys:
    """What the grouping rule compares of one document: name key, e-mails, phones, employers and recency."""

    candidate_id: str
    name: str
    key: str
    emails: frozenset[str]
    phones: frozenset[str]
    employers: frozenset[str]
    order: tuple = ()  # larger = newer (latest date reached, richness, import time, id)


def newest_date(record: dict) -> str:
    """The latest date a document reaches: its own printed date, a role's end, any role's start.

    A current role ("– present") counts by its start only: "present" is the CV's own date,
    which the document may not print. Partial ISO dates compare as strings.
    """
    dates = [record.get("cv_date") or ""]
    for r in record.get("experiences", []):
        dates.append(r.get("start") or "")
        if not r.get("is_current"):
            dates.append(r.get("end") or "")
    return max(dates, default="")


def richness(record: dict) -> int:
    """How much a document says (roles weigh most): the tie-breaker between equally recent documents."""
    return len(record.get("experiences", [])) * 3 + len(record.get("education", [])) * 2 + len(
        record.get("skills", []))


def document_keys(candidate_id: str, name: str | None, record: dict, imported_at: float = 0.0) -> DocumentKeys:
    """The grouping keys of one document, read from its stored record."""
    phones = {re.sub(r"\D", "", p) for p in record.get("phones", [])}
    emails = {normalize_key(e) for e in record.get("emails", []) if e and "@" in e}
    employers = {k for r in record.get("experiences", [])
                 if r.get("company") and len(k := employer_key(r["company"])) >= 3}
    order = (newest_date(record), richness(record), imported_at or 0.0, candidate_id)
    return DocumentKeys(candidate_id, name or "", name_key(name or ""), frozenset(emails),
                        frozenset(p for p in phones if len(p) >= 7), frozenset(employers), order)


_PLACEHOLDER_DOMAINS = frozenset({"example.com", "example.org", "example.net", "email.com", "domain.com",
                                  "yourdomain.com", "company.com", "yourcompany.com", "mail.example"})
_PLACEHOLDER_LOCALS = frozenset({"john.doe", "jane.doe", "johndoe", "janedoe", "john_doe", "jane_doe", "your.name",
                                 "yourname", "your_name", "name", "firstname.lastname", "first.last", "you", "me"})


def _placeholders(emails: frozenset[str]) -> bool:
    """True when every address is a template's placeholder (a sample domain or a sample name)."""
    def sample(addr: str) -> bool:
        local, _, domain = addr.lower().partition("@")
        return domain in _PLACEHOLDER_DOMAINS or local in _PLACEHOLDER_LOCALS

    return bool(emails) and all(sample(a) for a in emails)


def same_person(a: DocumentKeys, b: DocumentKeys) -> bool:
    """The automatic rule: same name key plus a shared e-mail, phone or employer, and nothing contradicting it.

    An e-mail is the strongest sign: two documents that both list e-mails and share none
    are two people; a shared one outweighs an employer list the extractor misread. Other
    phones (without a shared e-mail) or other employers (without a shared contact) also
    keep namesakes apart, and so does a shared template placeholder address (a résumé template's sample
    e-mail left in place) when the employers differ and no phone is shared. Where the names differ (one was
    misread), only the
    full set decides: the same e-mail, the same phone and a shared employer.
    """
    same_name = bool(a.key) and a.key == b.key
    e = not a.emails.isdisjoint(b.emails)
    if not (same_name or e):  # the common case, cheaply: other names and no shared e-mail
        return False
    e_both, p_both, w_both = a.emails and b.emails, a.phones and b.phones, a.employers and b.employers
    p, w = not a.phones.isdisjoint(b.phones), not a.employers.isdisjoint(b.employers)
    if e_both and not e:
        return False
    if p_both and not p and (not e or (w_both and not w)):
        return False
    if w_both and not w and not p and not (e and not _placeholders(a.emails & b.emails)):
        return False  # other employers, no shared phone, and the shared e-mail is a template's placeholder
    if same_name:
        return e or p or w
    return e and p and w


@dataclass
class Grouping:
    """The result of grouping: each person's documents (primary first) and document → person id."""

    people: dict[str, list[str]] = field(default_factory=dict)  # person id (primary document id) -> documents
    by_document: dict[str, str] = field(default_factory=dict)

    def documents_of(self, candidate_id: str) -> list[str]:
        """All documents of the person a document belongs to (empty when the id is unknown)."""
        pid = self.by_document.get(candidate_id)
        return list(self.people[pid]) if pid else []


class _Components:
    """Union-find over document ids (the recruiter's merges)."""

    def __init__(self, ids: Iterable[str]) -> None:
        self.parent = {i: i for i in ids}

    def find(self, x: str) -> str:
        root = x
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[x] != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra


def group_documents(docs: Iterable[DocumentKeys], links: Iterable[tuple[str, str, str]] = ()) -> Grouping:
    """Group documents into people: the recruiter's merges first, then the rule, never across a split.

    ``links`` are ``(candidate_id, candidate_id, "same" | "apart")``; links to documents
    not given are ignored. Documents are taken newest first; a document (or a merged
    group) joins a person only when the rule holds against *every* document the person
    already has and no split separates them, which keeps a chain of weak matches from
    gluing namesakes together.
    """
    by_id = {d.candidate_id: d for d in docs}
    comps = _Components(by_id)
    apart: dict[str, set[str]] = {}
    for a, b, kind in links:
        if a not in by_id or b not in by_id or a == b:
            continue
        if kind == SAME:
            comps.union(a, b)
        elif kind == APART:
            apart.setdefault(a, set()).add(b)
            apart.setdefault(b, set()).add(a)
    units: dict[str, list[DocumentKeys]] = {}
    for d in by_id.values():
        units.setdefault(comps.find(d.candidate_id), []).append(d)
    ordered = sorted(units.values(), key=lambda u: max(d.order for d in u), reverse=True)
    members: list[list[DocumentKeys]] = []
    by_key: dict[str, list[int]] = {}  # name key or "@" + e-mail -> people (the only ones the rule can join)
    for unit in ordered:
        keys = {d.key for d in unit if d.key} | {"@" + m for d in unit for m in d.emails}
        owner = None
        tried: set[int] = set()
        for key in keys:
            for pidx in by_key.get(key, []):
                if pidx not in tried:
                    tried.add(pidx)
                    if _joinable(unit, members[pidx], apart):
                        owner = pidx
                        break
            if owner is not None:
                break
        if owner is None:
            owner = len(members)
            members.append([])
        members[owner].extend(unit)
        for key in keys:
            if owner not in by_key.setdefault(key, []):
                by_key[key].append(owner)
    out = Grouping()
    for group in members:
        ids = [d.candidate_id for d in sorted(group, key=lambda d: d.order, reverse=True)]
        out.people[ids[0]] = ids
        for cid in ids:
            out.by_document[cid] = ids[0]
    return out


def _joinable(unit: list[DocumentKeys], person: list[DocumentKeys], apart: dict[str, set[str]]) -> bool:
    for d in unit:
        away = apart.get(d.candidate_id)
        for e in person:
            if (away and e.candidate_id in away) or not same_person(d, e):
                return False
    return True


def person_label(name: str | None, record: dict) -> str:
    """"Mara Quell · Senior Software Engineer · Acme": enough to tell namesakes apart."""
    title, company = record.get("current_title"), record.get("current_company")
    if not (title or company):
        first = next((r for r in record.get("experiences", []) if r.get("title") or r.get("company")), None)
        title, company = (first.get("title"), first.get("company")) if first else (None, None)
    if not (title or company) and record.get("location"):
        company = record["location"]
    parts = [name or "(no name)"] + [" ".join(str(p).split())[:60] for p in (title, company) if p]
    return " · ".join(parts)
