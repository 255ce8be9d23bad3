"""Reading a misspelt question: "who knows pyhton?" is a question about Python.

A question word that the library does not know is compared with the library's own
vocabulary (skills and their aliases, spoken languages, candidate names, employers,
places, schools, concept words, the recruiting and question words) by optimal string
alignment distance (an edit, or two adjacent letters swapped, counts one), through
rapidfuzz. A word is never corrected when it is itself known: a term of that
vocabulary, a question word of any language, a word any imported CV uses, or an
inflection of one of those. Short words need a single edit and agreement on the first
letter; every correction must be the one closest term (a tie is left alone). The
answer says what was read ("Read 'pyhton' as Python"), so a wrong reading is visible.
"""

from __future__ import annotations

import functools
import re
import threading
from dataclasses import dataclass

from rapidfuzz import process
from rapidfuzz.distance import OSA

from cvrag_desktop.assistant.facts.work_fields import work_fields
from cvrag_desktop.assistant.understand.plan import DOMAIN, FIELD_TERMS, GENERIC, STOPWORDS
from cvrag_desktop.assistant.understand.question import concepts, question_language, stopwords
from cvrag_desktop.assistant.understand.vocabulary import CatalogVocabulary, VocabularyCache
from cvrag_desktop.catalog.queries import all_chunk_texts
from cvrag_desktop.text.fold import fold
from cvrag_desktop.text.vocab.languages import canonical_language
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from cvrag_desktop.text.vocab.resources import resource_yaml

_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")
_SUFFIXES = ("s", "es", "ed", "d", "ing", "er", "ers", "ly", "'s", "’s")
MIN_LENGTH = 4  # three-letter words are too close to too many terms to be read as typos


@dataclass(frozen=True)
class Correction:
    """One word of the question and the known term it was read as."""

    written: str
    read: str

    def to_dict(self) -> dict:
        """Plain-data form (graph state, CLI JSON)."""
        return {"written": self.written, "read": self.read}


@dataclass
class TermIndex:
    """The words a question may be corrected to (folded → display form) and the words never corrected."""

    targets: dict[str, str]
    known: frozenset[str]
    common: frozenset[str] = frozenset()  # words several CVs use in their text: ordinary words, not unread names

    def __post_init__(self) -> None:
        self._choices = list(self.targets)


def _add(targets: dict[str, str], text: str, display: str | None = None, proper: bool = False) -> None:
    """Each word of ``text`` as a target, shown as the matching word of ``display`` (or as written).

    ``proper``: a name, employer or place, shown in title case when the CV prints it in capitals.
    """
    shown = (display or text).split()
    words = text.split()
    for i, w in enumerate(words):
        key = fold(w)
        if len(key) < MIN_LENGTH or not key.isalpha() or _CJK.search(key):
            continue
        form = shown[i] if len(shown) == len(words) else w
        if proper and form.isupper():
            form = form.title()  # "KELSEY" printed in capitals is the name Kelsey
        targets.setdefault(key, form)


def build_terms(vocab: CatalogVocabulary, corpus_words: set[str], common: frozenset[str] = frozenset()) -> TermIndex:
    """The term index of a library: its vocabulary as targets; targets, question words and CV words as known."""
    lex = load_lexicon()
    targets: dict[str, str] = {}
    for alias, canonical in lex.skill_aliases.items():
        if " " not in alias:
            _add(targets, alias, canonical if fold(canonical) == alias else None)
    for name, english in lex.languages.items():
        _add(targets, name, english if fold(english) == name else name.title())
    for w in (*sorted(DOMAIN), *sorted(FIELD_TERMS), *sorted(GENERIC), *sorted(stopwords("en"))):
        _add(targets, w)  # lowercase words first: "experiance" is read as "experience", not as an employer's word
    for alias, canonical in lex.skill_aliases.items():  # the words of "machine learning", "customer experience"
        if " " in alias:
            _add(targets, alias, canonical if fold(canonical) == alias else None)
    for c in concepts():
        for phrase in c.question:
            if not phrase.endswith("*"):
                _add(targets, phrase)

    for wf in work_fields():  # "construction", "nurses", "banku": a field of work, never corrected away
        for phrase in wf.question:
            _add(targets, phrase)
    for name in vocab.display_names.values():
        _add(targets, name, proper=True)
    for table in (vocab.companies, vocab.locations, vocab.institutions):
        for key, display in table.items():
            _add(targets, key, display, proper=True)
    known = set(targets) | set(stopwords()) | set(STOPWORDS) | DOMAIN | FIELD_TERMS | GENERIC | corpus_words
    return TermIndex(targets, frozenset(known), frozenset(common))


def _is_known(key: str, known: frozenset[str]) -> bool:
    """A known word or an inflection of one ("nurses", "managed"; any language's short ending: "banku")."""
    return _known_how(key, known) is not None


def _known_how(key: str, known: frozenset[str]) -> str | None:
    """How a word is known: "word", "inflection" (a listed ending), "ending" (any one or two final letters
    dropped: a guess for a language with no list), or None."""
    if key in known:
        return "word"
    if any(key.endswith(s) and key[: -len(s)] in known for s in _SUFFIXES if len(key) - len(s) >= 3):
        return "inflection"
    return "ending" if any(key[:-n] in known for n in (1, 2) if len(key) - n >= 4) else None


def _allowed_distance(key: str) -> int:
    return 2 if len(key) >= 9 else 1


def closest_term(word: str, terms: TermIndex) -> str | None:
    """The display form of the one term closest to an unknown word, or None (known, too far, or a tie)."""
    key = fold(word)
    how = _known_how(key, terms.known)
    if len(key) < MIN_LENGTH or not key.isalpha() or _CJK.search(key) or how in ("word", "inflection"):
        return None
    if word.isupper() and len(word) > 1:
        return None  # an acronym the library does not know ("ACLS") is not a misspelt word
    # known only as a guessed ending ("testin" = "test" + "in"?): a term one edit away that keeps the
    # first four letters is the likelier reading ("testing"); anything further is left alone
    limit = 1 if how == "ending" else _allowed_distance(key)
    found = process.extract(key, terms._choices, scorer=OSA.distance, score_cutoff=limit, limit=None)
    if not found:
        return None
    best = min(d for _, d, _ in found)
    closest = {terms.targets[t] for t, d, _ in found if d == best}
    forms = {fold(f) for f in closest}
    if len(forms) > 1:  # "catala" or "catalan"? names of one language: read as that language
        languages = {canonical_language(f) for f in closest}
        if len(languages) == 1 and None not in languages:
            closest, forms = set(languages), {fold(x) for x in languages}
    if len(forms) != 1:
        return None  # "kelly" or "kelsy"?: say nothing rather than guess
    read = sorted(closest)[0]
    if len(key) < 5 and fold(read)[0] != key[0]:
        return None  # a short word keeps its first letter
    if how == "ending" and fold(read)[:4] != key[:4]:
        return None
    return read


@functools.lru_cache(maxsize=1)
def _abbreviations() -> dict[str, dict[str, str]]:
    data = resource_yaml("question_words.yaml") or {}
    return {lang: {fold(k): str(v) for k, v in (table or {}).items()} for lang, table in
            (data.get("abbreviations") or {}).items()}


def expand_abbreviation(word: str, lang: str) -> str | None:
    """The whole word a recruiter's shortening stands for ("yrs" → "years"), in the question's language first."""
    key = fold(word)
    table = _abbreviations()
    return table.get(lang, {}).get(key) or table.get("en", {}).get(key)


def correct_question(question: str, terms: TermIndex) -> tuple[str, list[Correction]]:
    """The question with every shortened or misspelt word replaced by the term it was read as, and the
    corrections made."""
    corrections: list[Correction] = []
    out: list[str] = []
    last = 0
    lang = question_language(question)
    for m in _WORD.finditer(question):
        word = m.group(0)
        whole = expand_abbreviation(word, lang) if not word.isupper() else None
        read = whole or closest_term(word, terms)
        if read is None:
            continue
        if read.islower() and word[:1].isupper():
            read = read[:1].upper() + read[1:]
        out += [question[last:m.start()], read]
        last = m.end() + (1 if whole and question[m.end():m.end() + 1] == "." else 0)  # "mind. 5 Jahre"
        if all(c.written != word for c in corrections):
            corrections.append(Correction(word, read))
    out.append(question[last:])
    return "".join(out), corrections


def read_as_note(corrections: list[dict]) -> str:
    """"Read 'pyhton' as Python; 'dokcer' as Docker." (empty without corrections)."""
    if not corrections:
        return ""
    parts = [f"'{c['written']}' as {c['read']}" for c in corrections]
    return "Read " + "; ".join(parts) + "."


COMMON_DOCUMENTS = 3  # a word this many CVs use is an ordinary word of the library


def corpus_words(catalog) -> set[str]:
    """Every folded word the imported CVs use (a word a CV uses is not a typo)."""
    return set(_document_frequency(catalog))


def common_words(catalog) -> frozenset[str]:
    """Words at least :data:`COMMON_DOCUMENTS` CVs use ("banking", "team"), unlike a person's own name."""
    return frozenset(w for w, n in _document_frequency(catalog).items() if n >= COMMON_DOCUMENTS)


def _document_frequency(catalog) -> dict[str, int]:
    per_doc: dict[str, set[str]] = {}
    for row in all_chunk_texts(catalog):
        per_doc.setdefault(row["candidate_id"], set()).update(_WORD.findall(fold(row["text"] or "")))
    df: dict[str, int] = {}
    for words in per_doc.values():
        for w in words:
            df[w] = df.get(w, 0) + 1
    return df


class TermCache:
    """The term index of the catalog, rebuilt when the vocabulary's catalog fingerprint changes."""

    def __init__(self, vocab: VocabularyCache) -> None:
        self.vocab = vocab
        self._lock = threading.Lock()
        self._key: tuple | None = None
        self._terms: TermIndex | None = None

    def get(self) -> TermIndex:
        """The current term index."""
        key = self.vocab.fingerprint()
        with self._lock:
            if key != self._key or self._terms is None:
                df = _document_frequency(self.vocab.catalog)
                common = frozenset(w for w, n in df.items() if n >= COMMON_DOCUMENTS)
                self._terms = build_terms(self.vocab.get(), set(df), common)
                self._key = key
            return self._terms
