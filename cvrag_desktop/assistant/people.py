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

from cvrag_desktop.assistant.facts import CandidateFacts, CatalogFacts
from cvrag_desktop.assistant.vocabulary import company_core
from cvrag_desktop.index.filters import text_key
from cvrag_desktop.ingestion.textclean import normalize_key

TITLES = {"dr", "prof", "professor", "mr", "mrs", "ms", "miss", "mx", "sir", "dame", "herr", "frau", "dipl", "ing",
          "sr", "sra", "srta", "don", "dona", "m", "mme", "mlle", "sig", "dott", "eng", "rer", "nat", "med", "vet",
          "habil", "phil"}
POST_NOMINALS = {"phd", "msc", "bsc", "ma", "ba", "mba", "meng", "beng", "md", "jd", "cpa", "pmp", "cfa", "mphil",
                 "dphil", "llm", "llb", "bs", "ms", "mres", "dds", "rn", "pe", "jr", "sr", "ii", "iii", "iv", "bcs",
                 "mcs", "dipl-ing", "frcs", "acca", "cissp"}
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")
_POSSESSIVE = re.compile(r"(?<=\w)['’`´]s\b|(?<=[sxz])['’]", re.I)


def name_key(name: str) -> str:
    """A person's name as a comparison key: no titles, post-nominals, dots, case or accents.

    "Dr. Jan Küster, M.Sc." → "jan kuster"; "履歴書　書太郎" → "履歴書書太郎" (CJK names have no
    reliable spacing, so their key has none).
    """
    s = _POSSESSIVE.sub("", name or "")
    s = re.sub(r"(?<=\b[A-Za-z])\.(?=[A-Za-z]\.)", "", s)  # "M.Sc." → "MSc."
    words = text_key(s).split()
    while words and words[0] in TITLES:
        words.pop(0)
    while words and (words[-1] in POST_NOMINALS or words[-1] in TITLES):
        words.pop()
    key = " ".join(words)
    if _CJK.search(key):
        key = key.replace(" ", "")
    return key


def employer_key(company: str) -> str:
    """An employer as a spacing-free key without legal suffixes ("NVIDIA Research" = "NVIDIAResearch")."""
    return company_core(text_key(company)).replace(" ", "")


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


def _richness(f: CandidateFacts) -> int:
    rec = f.record
    return len(rec.get("experiences", [])) * 3 + len(rec.get("education", [])) * 2 + len(rec.get("skills", []))


def _newest(f: CandidateFacts) -> str:
    """The latest date a document's history reaches (current roles count as "9999"): newer CVs first."""
    dates = ["9999" if r.get("is_current") else (r.get("end") or r.get("start") or "")
             for r in f.record.get("experiences", [])]
    dates += [r.get("start") or "" for r in f.record.get("experiences", [])]
    return max(dates, default="")


def _employers(f: CandidateFacts) -> set[str]:
    return {k for r in f.record.get("experiences", []) if r.get("company") and len(k := employer_key(r["company"])) >= 3}


def _contacts(f: CandidateFacts) -> set[str]:
    phones = {re.sub(r"\D", "", p) for p in f.record.get("phones", [])}
    return {normalize_key(e) for e in f.record.get("emails", [])} | {p for p in phones if len(p) >= 7}


def same_person(a: CandidateFacts, b: CandidateFacts) -> bool:
    """Two documents of one person: same name key, and neither employers nor contacts contradict it.

    Both histories must share an employer and both contact sets an e-mail or phone,
    wherever both sides list them: namesakes with the same placeholder e-mail but other
    employers stay apart, and so do namesakes who once worked at one firm but give other
    contacts. Where a side lists neither, the name decides.
    """
    if not name_key(a.name) or name_key(a.name) != name_key(b.name):
        return False
    ea, eb = _employers(a), _employers(b)
    if ea and eb and not ea & eb:
        return False
    ca, cb = _contacts(a), _contacts(b)
    return not (ca and cb and not ca & cb)


def person_label(f: CandidateFacts) -> str:
    """"John Doe · Senior Software Engineer · Stripe": enough to tell namesakes apart."""
    rec = f.record
    title, company = rec.get("current_title"), rec.get("current_company")
    if not (title or company):
        first = next((r for r in rec.get("experiences", []) if r.get("title") or r.get("company")), None)
        title, company = (first.get("title"), first.get("company")) if first else (None, None)
    if not (title or company) and rec.get("location"):
        company = rec["location"]
    parts = [f.name] + [" ".join(str(p).split())[:60] for p in (title, company) if p]
    return " · ".join(parts)


class PeopleIndex:
    """Every person in the catalog, rebuilt with the facts; document id ↔ person."""

    def __init__(self, facts: CatalogFacts) -> None:
        self.facts = facts
        self._lock = threading.Lock()
        self._source: object = None
        self.people: dict[str, Person] = {}
        self.by_document: dict[str, str] = {}
        self.by_key: dict[str, list[str]] = {}
        self.tokens: dict[str, set[str]] = {}
        self._headers: dict[str, str] | None = None

    def refresh(self) -> PeopleIndex:
        """Rebuild when the catalog changed (the facts object is replaced on change)."""
        docs = self.facts.all()
        with self._lock:
            if docs is not self._source:
                self._build(docs)
                self._source = docs
        return self

    def _build(self, docs: dict[str, CandidateFacts]) -> None:
        people: dict[str, Person] = {}
        by_doc: dict[str, str] = {}
        by_key: dict[str, list[str]] = {}
        # each person's first document is the newest (then the richest): its facts answer first
        ordered = sorted(docs.values(), key=lambda f: (_newest(f), _richness(f), f.candidate_id), reverse=True)
        for f in ordered:
            key = name_key(f.name)
            owner = next((pid for pid in by_key.get(key, []) if key
                          and all(same_person(docs[d], f) for d in people[pid].documents)), None)
            if owner is None:
                people[f.candidate_id] = Person(f.candidate_id, f.name, key, [f.candidate_id], person_label(f))
                by_doc[f.candidate_id] = f.candidate_id
                by_key.setdefault(key, []).append(f.candidate_id)
            else:
                people[owner].documents.append(f.candidate_id)
                by_doc[f.candidate_id] = owner
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
                heads[pid] = f" {text_key(_POSSESSIVE.sub('', text))} "
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


def _question_key(question: str) -> str:
    return text_key(_POSSESSIVE.sub("", question))


def find_mentions(question: str, index: PeopleIndex, ignore: set[str]) -> list[Mention]:
    """People named in the question: full names, then single first names or surnames (any case).

    ``ignore`` holds folded words that must not be read as names (skills, languages,
    question words, employer words). CJK names are matched inside the question's text.
    """
    index.refresh()
    words = _question_key(question).split()
    used: set[int] = set()
    out: list[Mention] = []
    compact = _question_key(question).replace(" ", "")
    for key, pids in index.by_key.items():
        if _CJK.search(key) and len(key) >= 2 and key in compact:
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
    out += _header_mentions(question, words, used, index, ignore)
    if not out:
        out += _cjk_header_mentions(question, index)
    return out


def _cjk_header_mentions(question: str, index: PeopleIndex) -> list[Mention]:
    """A CJK name printed at the top of exactly one CV ("马克思" in "马克思的博士论文写的是什么").

    Tried longest first (4 characters down to 2) at each position of the question's CJK runs.
    """
    from cvrag_desktop.assistant.question import strip_cjk

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
                     ignore: set[str]) -> list[Mention]:
    """Names the catalog did not read as names, found in the top lines of a CV ("daberdaku", "Ritesh Ajoodha").

    Only words written as names are tried: capitalised in the question, or any word of
    an all-lowercase question. Two adjacent words found together win over one word.
    """
    lowercase = question == question.lower()
    written = {normalize_key(t) for t in re.findall(r"[\w'-]+", question) if t[:1].isupper()}
    cand = [i for i, w in enumerate(words) if i not in used and len(w) >= 3 and w not in ignore and not w.isdigit()
            and (lowercase or w in written) and not _CJK.search(w)]
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
