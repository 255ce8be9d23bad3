"""Is every claim of a model's answer written in the evidence it cites?

A citation id proves only that the excerpt exists, not that it says what the sentence
claims: "40 years of Kafka at NASA, a PhD from MIT [E1]" cited to a skills line naming
Kafka passed the older, question-term check. Here the answer is split into claim
sentences, and what each sentence asserts must be found in the text of the excerpts it
cites (a sentence without a marker: in any excerpt the reply cites):

- *hard* facts, each of which must be found: numbers (any format: "1,000", "3,5", "five",
  a number of years that two cited years give), months, skills (through the alias table),
  degree words (the word itself, or a degree of the same level), spoken languages (in any
  language), capitalised words (employers, schools, places, names, acronyms) and words of
  private life ("criminal", "married", …) that no CV excerpt should be made to say;
- *soft* words (ordinary content words): a paraphrase may use a synonym or two, so a
  sentence fails only when at least two of them, and over a third, are found nowhere.

Matching folds case and accents and tolerates inflection (crude stems, shared prefixes).
The question's own words, question and function words of every listed language, a small
answer vocabulary ("experience", "lists", "holds") and the cited candidates' names need
no support. The check is lexical: a faithful answer translated from an excerpt in another
language is rejected (and the deterministic answer is shown instead, which is safe).
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from dataclasses import dataclass, field

from cvrag_desktop.assistant.answer.polarity import polarity_clashes
from cvrag_desktop.assistant.understand.question import stopwords
from cvrag_desktop.text.keys import normalize_key, text_key
from cvrag_desktop.text.stems import suffix_stem
from cvrag_desktop.text.vocab.degrees import DEGREE_LEVELS, DEGREE_WORDS
from cvrag_desktop.text.vocab.languages import canonical_language
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from cvrag_desktop.text.vocab.skills import skill_key

_MARK = re.compile(r"\[E\d+\]")
_SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=[\"“(\[]?[A-ZÀ-Ý0-9])|\n+")
_NUMBER = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*(?![A-Za-z])")
_THOUSANDS = re.compile(r"^\d{1,3}(?:([.,])\d{3})(?:\1\d{3})*$")
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_YEAR = re.compile(r"(?<!\d)(19[5-9]\d|20\d\d)(?!\d)")
_MONTH_DATE = re.compile(r"(?<!\d)(\d{1,2})[/.](?:19|20)\d\d(?!\d)|(?<!\d)(?:19|20)\d\d[-/.](\d{1,2})(?!\d)")



def _wordlist(text: str) -> frozenset[str]:
    """A set of words written as one spaced string (data kept readable)."""
    return frozenset(text.split())


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "hundred": 100, "thousand": 1000, "dozen": 12, "single": 1, "once": 1, "twice": 2,
    "uno": 1, "una": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7, "ocho": 8,
    "nueve": 9, "diez": 10, "zwei": 2, "drei": 3, "vier": 4, "funf": 5, "sechs": 6, "sieben": 7, "acht": 8,
    "neun": 9, "zehn": 10, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "sept": 7, "huit": 8, "neuf": 9,
}
# an answer's own words: they describe what the excerpt is, not a fact about the person
ANSWER_WORDS = _wordlist("""
experience experienced years year worked works working work skill skills skilled knowledge candidate profile
background section sections cv resume listed lists list mentions mention according excerpt excerpts evidence
based shows show has have role roles position positions job jobs currently current presently now present also
including include includes proficient familiar expertise level levels holds hold held degree degrees studied
study speaks speak spoken language languages total approximately roughly around over about more than period
time employer employers company companies served serves named called as well both yes does not answer stated
states says record records cited cites""")
# words of private life: never a CV fact to state unless an excerpt literally says it
PRIVATE_WORDS = _wordlist("""
criminal crime crimes convicted conviction convictions arrested arrest prison jail jailed fired dismissed
sacked lawsuit sued fraud married divorced widowed single pregnant pregnancy children child kids religion
religious muslim christian jewish catholic disability disabled illness ill sick disease diagnosed
health ethnicity race gay lesbian transgender nationality citizen citizenship born age aged salary
""")
@dataclass
class _Evidence:
    """What the cited excerpts say, in the forms the claims are compared with."""

    words: set[str] = field(default_factory=set)
    stems: set[str] = field(default_factory=set)
    numbers: set[float] = field(default_factory=set)
    years: set[int] = field(default_factory=set)
    months: set[int] = field(default_factory=set)
    skills: set[str] = field(default_factory=set)
    languages: set[str] = field(default_factory=set)
    levels: set[str] = field(default_factory=set)
    present: bool = False


def _number(token: str) -> float | None:
    """The value of a printed number: "1,000" = "1.000" = 1000, "3,5" = 3.5."""
    if _THOUSANDS.match(token):
        return float(re.sub(r"[.,]", "", token))
    try:
        return float(token.replace(",", "."))
    except ValueError:
        return None


def _folded_words(text: str) -> list[str]:
    return [w for raw in _WORD.findall(text) for w in text_key(raw.replace("’", "'")).split()]


@functools.lru_cache(maxsize=1)
def _month_names() -> dict[str, int]:
    return {text_key(k): v for k, v in load_lexicon().months.items() if len(text_key(k)) >= 3}


def _skills_in(text: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), skill_key(m.group(0))) for m in load_lexicon().skill_pattern.finditer(text)]


def _levels_in(text: str) -> set[str]:
    key = normalize_key(text)
    return {level for level, pattern in DEGREE_LEVELS if pattern.search(key)}


def _language(word: str) -> str | None:
    return canonical_language(word)


def read_evidence(texts: list[str]) -> _Evidence:
    """Index the cited excerpts' words, numbers, dates, skills, languages and degree levels."""
    ev = _Evidence()
    months = _month_names()
    for text in texts:
        words = _folded_words(text)
        ev.words.update(words)
        ev.stems.update(suffix_stem(w) for w in words)
        for w in words:
            if w in NUMBER_WORDS:
                ev.numbers.add(float(NUMBER_WORDS[w]))
            if w in months:
                ev.months.add(months[w])
            if (lang := _language(w)) is not None:
                ev.languages.add(lang)
        ev.numbers.update(v for t in _NUMBER.findall(text) if (v := _number(t)) is not None)
        ev.years.update(int(y) for y in _YEAR.findall(text))
        for m in _MONTH_DATE.finditer(text):
            month = int(m.group(1) or m.group(2))
            if 1 <= month <= 12:
                ev.months.add(month)
        ev.skills.update(s for _, _, s in _skills_in(text))
        ev.levels |= _levels_in(text)

        key = normalize_key(text)
        ev.present = ev.present or any(re.search(rf"(?<!\w){re.escape(p)}(?!\w)", key)
                                       for p in load_lexicon().present_words)
    return ev


def _known(word: str, ev: _Evidence) -> bool:
    """Is a (folded) claim word written in the evidence, allowing for inflection?"""
    if word in ev.words or suffix_stem(word) in ev.stems:
        return True
    if len(word) < 5:
        return False
    for w in ev.words:
        if len(w) >= 5 and w[:5] == word[:5]:
            common = _common_prefix(w, word)
            if common >= max(5, min(len(w), len(word)) - 2):
                return True
    return False


def _number_supported(value: float, ev: _Evidence, asked: set[float], today: dt.date) -> bool:
    if value in ev.numbers or value in asked:
        return True
    if value != int(value) or value > 60:
        return False
    # a number of years from two printed years (or from a year to "present")
    spans = {abs(a - b) for a in ev.years for b in ev.years}
    if ev.present:
        spans |= {today.year - y for y in ev.years}
    return any(abs(value - s) <= 1 for s in spans)


@dataclass
class Unsupported:
    """One claim sentence and what in it no cited excerpt states."""

    sentence: str
    missing: list[str]
    denies: str = ""  # set when the sentence negates what its excerpt states (or the reverse)

    def reason(self) -> str:
        """The rejection reason sent back to the model (and kept in the notes)."""
        if self.denies:
            return f"the sentence {self.sentence[:160]!r}: {self.denies}"
        return (f"the sentence {self.sentence[:160]!r} states {', '.join(repr(m) for m in self.missing[:5])}, "
                "which the excerpt it cites does not say")


def claim_sentences(answer: str) -> list[str]:
    """The answer split into sentences (and lines), each a claim to check."""
    return [s.strip() for s in _SENTENCE.split(answer) if s and s.strip()]


def check_sentence(sentence: str, ev: _Evidence, exempt: _Exempt, asked: set[float],
                   asked_skills: set[str], today: dt.date) -> list[str]:
    """What this sentence asserts that the evidence does not say (empty: supported)."""
    text = _MARK.sub(" ", sentence)
    missing: list[str] = []
    spans: list[tuple[int, int]] = []
    for start, end, key in _skills_in(text):
        spans.append((start, end))
        if key not in ev.skills and key not in asked_skills and not all(
                w in exempt.free or w in exempt.function or _known(w, ev) for w in text_key(text[start:end]).split()):
            missing.append(text[start:end])
    for m in DEGREE_WORDS.finditer(text):
        if m.group(0) == "ba" or any(s <= m.start() < e for s, e in spans):
            continue  # lowercase "ba" is not a degree
        spans.append((m.start(), m.end()))
        words = text_key(m.group(0)).split()
        level = next(iter(_levels_in(m.group(0))), None)
        lexical = all(w in exempt.free or w in exempt.function or _known(w, ev) for w in words)
        if not lexical and (level is None or level not in ev.levels):
            missing.append(m.group(0))
    rest = "".join(" " if any(s <= i < e for s, e in spans) else ch for i, ch in enumerate(text))
    for token in _NUMBER.findall(rest):
        value = _number(token)
        if value is not None and not _number_supported(value, ev, asked, today):
            missing.append(token)
    months = _month_names()
    soft, soft_missing = 0, []
    for raw in _WORD.findall(rest):
        capital = raw[:1].isupper()
        for w in text_key(raw.replace("’", "'")).split():
            if w in ("s", "t") or w in exempt.free or (w in exempt.function and not (
                    capital and (raw.isupper() or w not in exempt.english))):
                continue  # an acronym (MIT) or a capitalised word is never another language's "mit"/"die"
            if w in NUMBER_WORDS:
                if not _number_supported(float(NUMBER_WORDS[w]), ev, asked, today):
                    missing.append(raw)
                continue
            if w in months and capital:
                if months[w] not in ev.months and w not in ev.words:
                    missing.append(raw)
                continue
            lang = _language(w) if capital else None
            known = _known(w, ev) or (lang is not None and lang in ev.languages)
            if capital or w in PRIVATE_WORDS:
                if not known:
                    missing.append(raw)
                continue
            soft += 1
            if not known:
                soft_missing.append(raw)
    if len(soft_missing) >= 2 and len(soft_missing) * 3 > soft:
        missing.extend(soft_missing)
    return list(dict.fromkeys(missing))


@dataclass
class _Exempt:
    """Words that need no support: the question's and names' (``free``), function words."""

    free: set[str]
    function: frozenset[str]
    english: frozenset[str]


def _exempt_words(question: str, names: list[str]) -> _Exempt:
    free = {w for n in names for w in _folded_words(n)}
    free |= {w for w in _folded_words(question) if w not in PRIVATE_WORDS}
    return _Exempt(free, stopwords() | ANSWER_WORDS, stopwords("en") | ANSWER_WORDS)


def unsupported_claims(answer: str, cited: list[str], given: dict[str, dict], question: str,
                       names: list[str] | None = None, today: dt.date | None = None) -> list[Unsupported]:
    """Claim sentences of ``answer`` that the excerpts they cite do not support.

    ``cited`` are the reply's citation ids (a sentence without its own marker is checked
    against all of them), ``given`` the evidence by id (``text``, ``candidate_name``),
    ``names`` further names that need no support (the cited candidates' display names).
    """
    today = today or dt.date.today()
    people = [given[c].get("candidate_name") or "" for c in cited if c in given] + list(names or [])
    exempt = _exempt_words(question, people)
    asked = {v for t in _NUMBER.findall(question) if (v := _number(t)) is not None}
    asked |= {float(NUMBER_WORDS[w]) for w in _folded_words(question) if w in NUMBER_WORDS}
    asked_skills = {s for _, _, s in _skills_in(question)}
    every = read_evidence([given[c]["text"] for c in cited if c in given])
    ignore = exempt.function | {w for n in people for w in _folded_words(n)}
    out = []
    for sentence in claim_sentences(answer):
        own = [m[1:-1] for m in _MARK.findall(sentence) if m[1:-1] in given]
        ev = read_evidence([given[c]["text"] for c in own]) if own else every
        missing = check_sentence(sentence, ev, exempt, asked, asked_skills, today)
        clashes = polarity_clashes(_MARK.sub(" ", sentence), [given[c]["text"] for c in (own or cited) if c in given],
                                   ignore)
        if missing or clashes:
            shown = re.sub(r"\s+([.,;:!?])", r"\1", " ".join(_MARK.sub("", sentence).split()))
            out.append(Unsupported(shown, missing, clashes[0].reason() if clashes else ""))
    return out
