"""What the router can recognise in a question, read from the data: names, employers, places.

Candidate names, employers and locations come from the catalog (so "who worked at
Initech?" works for any imported employer); skills and spoken languages come from the
ingestion alias tables; degree levels and field words are fixed tables here. The
catalog part is rebuilt only when the catalog changes (cheap fingerprint query).
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field

from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.catalog.queries import candidate_fingerprint, vocabulary_rows
from cvrag_desktop.text.companies import company_core
from cvrag_desktop.text.keys import text_key
from cvrag_desktop.text.vocab.degrees import DEGREE_LEVELS
from cvrag_desktop.text.vocab.languages import canonical_language
from cvrag_desktop.text.vocab.skills import canonical_skill

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


@dataclass
class CatalogVocabulary:
    """N-gram tables of the catalog's names, employers and locations (normalised keys)."""

    names: dict[str, set[str]] = field(default_factory=dict)  # full name key -> candidate ids
    name_tokens: dict[str, set[str]] = field(default_factory=dict)  # single name word -> candidate ids
    display_names: dict[str, str] = field(default_factory=dict)  # candidate id -> name
    companies: dict[str, str] = field(default_factory=dict)  # key or core -> display
    locations: dict[str, str] = field(default_factory=dict)  # key -> display
    institutions: dict[str, str] = field(default_factory=dict)  # key -> display
    skills: dict[str, str] = field(default_factory=dict)  # a listed skill the alias table lacks, as printed -> itself
    plain_skills: dict[str, str] = field(default_factory=dict)  # listed lowercase skill: letters+digits -> as printed
    max_words: int = 1


def _plausible_entity(key: str) -> bool:
    """An employer or place key worth matching in questions: not a skill, a degree or a lone letter.

    Mis-read CV lines ("C#" or "Java" as an employer, "Ph.D." as a place) must not turn a
    question about a skill or a degree into an employer or location filter.
    """
    if len(key.replace(" ", "")) < 2 or canonical_skill(key) or canonical_language(key):
        return False
    return not any(pattern.search(key) for _, pattern in DEGREE_LEVELS)


def _listed_skill(skill: str) -> bool:
    """A skill a CV lists that a question can name as printed: "AS3", "Menu planning", "SAP FI".

    Skills of the alias table are found by the router's own pattern; an all-lowercase single
    word ("teaching") is left out, since it is as likely an ordinary word of the question.
    """
    s = skill.strip()
    if len(s) < 2 or len(s) > 40 or canonical_skill(s) or not re.search(r"\w", s):
        return False
    return " " in s or s != s.lower()


def build_vocabulary(catalog: Catalog) -> CatalogVocabulary:
    """Read names, employers, locations, schools and listed skills of every candidate into lookup tables."""
    v = CatalogVocabulary()
    for r in vocabulary_rows(catalog):
        cid, name = r["candidate_id"], r["name"] or ""
        v.display_names[cid] = name
        key = text_key(name)
        if key:
            v.names.setdefault(key, set()).add(cid)
            words = key.split()
            for w in words:
                if len(w) >= 3:
                    v.name_tokens.setdefault(w, set()).add(cid)
            if len(words) >= 3:  # "Ana María López García": first + first surname is how people say it
                v.names.setdefault(f"{words[0]} {words[-2]}", set()).add(cid)
                v.names.setdefault(f"{words[0]} {words[-1]}", set()).add(cid)

        for comp in json.loads(r["companies"] or "[]"):
            ck = text_key(comp)
            if _plausible_entity(ck):
                v.companies.setdefault(ck, comp)
                core = company_core(ck)
                if len(core) >= 4:
                    v.companies.setdefault(core, comp)
        for skill in json.loads(r["skills"] or "[]"):
            if _listed_skill(skill):
                v.skills.setdefault(skill, skill)
            elif (len(skill.strip()) >= 3 or _CJK.search(skill)) and not canonical_skill(skill) and \
                    (key := re.sub(r"[\W_]+", "", text_key(skill))):
                v.plain_skills.setdefault(key, skill)
        for inst in json.loads(r["institutions"] or "[]"):
            ik = text_key(inst)
            if len(ik) >= 4:
                v.institutions.setdefault(ik, inst)
        loc = r["location"]
        if loc:
            for part in re.split(r"[,;/(]", loc):
                lk = text_key(part)
                if len(lk) >= 3 and _plausible_entity(lk):
                    v.locations.setdefault(lk, part.strip())
    v.max_words = max([len(k.split()) for k in (*v.names, *v.companies, *v.locations, *v.institutions)] or [1])
    return v


class VocabularyCache:
    """The catalog vocabulary, rebuilt when the catalog's candidate set changes."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._lock = threading.Lock()
        self._key: tuple | None = None
        self._vocab = CatalogVocabulary()

    def fingerprint(self) -> tuple:
        """Cheap change marker: candidate count and newest insert time."""
        return candidate_fingerprint(self.catalog)

    def get(self) -> CatalogVocabulary:
        """The current vocabulary."""
        key = self.fingerprint()
        with self._lock:
            if key != self._key:
                self._vocab = build_vocabulary(self.catalog)
                self._key = key
            return self._vocab
