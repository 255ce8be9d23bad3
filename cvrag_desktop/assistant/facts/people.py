"""People, not files: name keys, documents of one person, and who a question names.

A candidate row is one *document*. Recruiters ask about *people*: "Smith's", "park",
"Dr. Jan Küster", "the John Doe who works at Stripe". This module folds names into keys
(titles, post-nominals, possessives, case, diacritics and CJK spacing removed), groups the
documents of one person (same name key and a shared employer, or, where either lists no
employer, a shared e-mail or phone), labels people so namesakes can be told apart
(name · current title · company), and resolves the people a question names.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field

from cvrag_desktop.assistant.facts.store import CandidateFacts, CatalogFacts
from cvrag_desktop.assistant.understand.question import strip_cjk
from cvrag_desktop.catalog import people as grouping
from cvrag_desktop.text.keys import normalize_key
from cvrag_desktop.text.names import CJK, mention_key, name_key


@dataclass
class Person:
    """One person: their documents (candidate ids), display name and a label that tells namesakes apart."""

    person_id: str
    name: str
    key: str
    documents: list[str] = field(default_factory=list)
    label: str = ""

    @property
    def primary(self) -> str:
        """The document answers cite first (the newest, then the richest)."""
        return self.documents[0]


def keys_of(f: CandidateFacts) -> grouping.DocumentKeys:
    """The grouping keys of a document's facts (see :func:`cvrag_desktop.catalog.people.document_keys`)."""
    return grouping.document_keys(f.candidate_id, f.name, f.record, f.imported_at)


def same_person(a: CandidateFacts, b: CandidateFacts) -> bool:
    """Two documents of one person by the automatic rule (see :func:`cvrag_desktop.catalog.people.same_person`)."""
    return grouping.same_person(keys_of(a), keys_of(b))


def person_label(f: CandidateFacts) -> str:
    """"John Doe · Senior Software Engineer · Stripe": enough to tell namesakes apart."""
    return grouping.person_label(f.name, f.record)


class PeopleIndex:
    """Every person in the catalog, rebuilt with the facts; document id ↔ person."""

    def __init__(self, facts: CatalogFacts) -> None:
        self.facts = facts
        self._lock = threading.Lock()
        self._source: object = None
        self._links_version: int | None = None
        self.people: dict[str, Person] = {}
        self.by_document: dict[str, str] = {}
        self.by_key: dict[str, list[str]] = {}
        self.tokens: dict[str, set[str]] = {}
        self._headers: dict[str, str] | None = None

    def refresh(self) -> PeopleIndex:
        """Rebuild when the catalog or the recruiter's merges/splits changed."""
        docs = self.facts.all()
        catalog = self.facts.catalog
        version = catalog.links_version()
        with self._lock:
            if docs is not self._source or version != self._links_version:
                self._build(docs, catalog.person_links())
                self._source, self._links_version = docs, version
        return self

    def _build(self, docs: dict[str, CandidateFacts], links: list[tuple[str, str, str]]) -> None:
        # the shared grouping (browser and chat): each person's first document is the newest
        found = grouping.group_documents((keys_of(f) for f in docs.values()), links)
        people: dict[str, Person] = {}
        by_key: dict[str, list[str]] = {}
        for pid, ids in found.people.items():
            f = docs[pid]
            key = name_key(f.name)
            people[pid] = Person(pid, f.name, key, list(ids), person_label(f))
            by_key.setdefault(key, []).append(pid)
        by_doc = dict(found.by_document)
        tokens: dict[str, set[str]] = {}
        for p in people.values():
            for w in p.key.split():
                if len(w) >= 2:
                    tokens.setdefault(w, set()).add(p.person_id)
        self.people, self.by_document, self.by_key, self.tokens = people, by_doc, by_key, tokens
        self._headers = None

    def headers(self) -> dict[str, str]:
        """Each person's CV top lines as a padded text key (where a name the extractor missed is printed)."""
        self.refresh()
        if self._headers is None:
            heads = {}
            for pid, p in self.people.items():
                text = " ".join(c.text[:400] for d in p.documents for c in self.facts.chunks(d)[:1])
                heads[pid] = f" {mention_key(text)} "
            self._headers = heads
        return self._headers

    def doc(self, candidate_id: str) -> CandidateFacts | None:
        """A document's facts as of the last refresh (no catalog query: for loops over everyone)."""
        return self._source.get(candidate_id) if isinstance(self._source, dict) else self.facts.get(candidate_id)

    def person_of(self, candidate_id: str, refresh: bool = True) -> Person | None:
        """The person a document belongs to (``refresh=False`` inside a loop, after one refresh)."""
        if refresh:
            self.refresh()
        pid = self.by_document.get(candidate_id)
        return self.people.get(pid) if pid else None

    def persons(self, candidate_ids: list[str]) -> list[Person]:
        """The distinct people of some documents, in first-seen order."""
        out: list[Person] = []
        for cid in candidate_ids:
            p = self.person_of(cid)
            if p and p not in out:
                out.append(p)
        return out

    def namesakes(self, person: Person) -> list[Person]:
        """Other people with the same name key."""
        return [self.people[pid] for pid in self.by_key.get(person.key, []) if pid != person.person_id]

    def display(self, person: Person) -> str:
        """The label when the name is shared, else the plain name."""
        return person.label if self.namesakes(person) else person.name


@dataclass
class Mention:
    """A name written in the question and the people it may mean (several when namesakes share it)."""

    text: str
    person_ids: list[str]


def find_mentions(question: str, index: PeopleIndex, ignore: set[str], common: frozenset[str] = frozenset()
                  ) -> list[Mention]:
    """People named in the question: full names, then single first names or surnames (any case).

    ``ignore`` holds folded words that must not be read as names (skills, languages,
    question words, employer words). CJK names are matched inside the question's text.
    """
    index.refresh()
    words = mention_key(question).split()
    used: set[int] = set()
    out: list[Mention] = []
    compact = mention_key(question).replace(" ", "")
    for key, pids in index.by_key.items():
        if CJK.search(key) and len(key) >= 2 and key in compact:
            out.append(Mention(key, list(pids)))
    for n in range(min(5, len(words)), 1, -1):
        for i in range(len(words) - n + 1):
            if any(j in used for j in range(i, i + n)):
                continue
            key = " ".join(words[i:i + n])
            pids = index.by_key.get(key)
            if not pids:
                # "Jan Küster" for "Jan Christoph Küster": first and last word of a longer name
                pids = [p.person_id for p in index.people.values() if len(p.key.split()) > 2 and n == 2
                        and p.key.split()[0] == words[i] and p.key.split()[-1] == words[i + 1]]
            if pids:
                out.append(Mention(key, list(pids)))
                used.update(range(i, i + n))
    for i, w in enumerate(words):
        if i in used or len(w) < 3 or w in ignore or w.isdigit():
            continue
        pids = index.tokens.get(w)
        if pids:
            out.append(Mention(w, sorted(pids)))
            used.add(i)
    out += _header_mentions(question, words, used, index, ignore, common)
    if not out:
        out += _cjk_header_mentions(question, index)
    return out


def _cjk_header_mentions(question: str, index: PeopleIndex) -> list[Mention]:
    """A CJK name printed at the top of exactly one CV ("马克思" in "马克思的博士论文写的是什么").

    Tried longest first (4 characters down to 2) at each position of the question's CJK runs.
    """
    heads = {pid: h.replace(" ", "") for pid, h in index.headers().items()}
    for run in re.findall(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]{2,}", strip_cjk(question)):
        for size in (4, 3, 2):
            for i in range(len(run) - size + 1):
                piece = run[i:i + size]
                pids = [pid for pid, h in heads.items() if piece in h]
                if len(pids) == 1:
                    return [Mention(piece, pids)]
    return []


def _header_mentions(question: str, words: list[str], used: set[int], index: PeopleIndex,
                     ignore: set[str], common: frozenset[str] = frozenset()) -> list[Mention]:
    """Names the catalog did not read as names, found in the top lines of a CV ("daberdaku", "Ritesh Ajoodha").

    Only words written as names are tried: capitalised in the question, or any word of
    an all-lowercase question, unless many CVs use the word (``common``: "banking" on a
    headline is not a name). Two adjacent words found together win over one word.
    """
    lowercase = question == question.lower()
    written = {normalize_key(t) for t in re.findall(r"[\w'-]+", question) if t[:1].isupper()}
    cand = [i for i, w in enumerate(words) if i not in used and len(w) >= 3 and w not in ignore and not w.isdigit()
            and (w in written or (lowercase and w not in common)) and not CJK.search(w)]
    out: list[Mention] = []
    heads = index.headers()
    for n in (2, 1):
        for i in cand:
            if i in used or (n == 2 and (i + 1 not in cand or i + 1 in used)):
                continue
            phrase = " ".join(words[i:i + n])
            pids = [pid for pid, head in heads.items() if f" {phrase} " in head]
            if not pids and n == 1 and len(phrase) >= 5:  # "ritesh" in an address or handle "riteshajoodha"
                pids = [pid for pid, head in heads.items() if re.search(r" " + re.escape(phrase) + r"[a-z]{3,} ",
                                                                            head)]
            if pids and (n == 2 or len(pids) == 1):
                out.append(Mention(phrase, pids))
                used.update(range(i, i + n))
    return out
