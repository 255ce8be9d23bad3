"""What a question asks for, in any of the CVs' languages: content words and concepts.

Question, instruction and relational words ("before", "joined", "rank", "welche", "哪些")
are never required evidence: they come from ``resources/question_words.yaml``, per
language. Facts a CV states in other words ("promoviert" → a line with "Doktorarbeit";
"salary" → Gehalt, compensation, 薪资) are *concepts* from ``resources/concepts.yaml``:
the words a question uses and the words a CV line uses to state them.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from cvrag_desktop.text.fold import fold
from cvrag_desktop.text.vocab.resources import resource_yaml

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_WORD = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*", re.UNICODE)


@dataclass(frozen=True)
class Concept:
    """A fact asked about and the words a CV line uses to state it."""

    cid: str
    label: str
    question: tuple[str, ...]
    evidence: tuple[str, ...]


@functools.lru_cache(maxsize=1)
def _question_words() -> tuple[frozenset[str], tuple[str, ...], dict[str, frozenset[str]]]:
    data = resource_yaml("question_words.yaml") or {}
    per_lang = {lang: frozenset(fold(w) for w in words or []) for lang, words in (data.get("stopwords") or {}).items()}
    every = frozenset().union(*per_lang.values()) if per_lang else frozenset()
    cjk = [fold(w) for lang in ("zh", "ja") for w in (data.get("cjk") or {}).get(lang) or []]
    return every, tuple(sorted(set(cjk), key=len, reverse=True)), per_lang


@functools.lru_cache(maxsize=1)
def concepts() -> tuple[Concept, ...]:
    """Every concept of ``resources/concepts.yaml``."""
    data = resource_yaml("concepts.yaml") or {}
    out = []
    for cid, c in (data.get("concepts") or {}).items():
        out.append(Concept(cid, c.get("label") or cid.replace("_", " "),
                           tuple(fold(w) for w in c.get("question") or []),
                           tuple(fold(w) for w in c.get("evidence") or [])))
    return tuple(out)


@functools.lru_cache(maxsize=16)
def phrases(kind: str) -> tuple[str, ...]:
    """Every language's folded phrases of one list of ``question_words.yaml`` ("currently", "before", "after")."""
    data = resource_yaml("question_words.yaml") or {}
    found = {fold(str(p)) for words in (data.get(kind) or {}).values() for p in words or []}
    return tuple(sorted((p for p in found if p), key=len, reverse=True))


@functools.lru_cache(maxsize=16)
def phrase_alternation(kind: str) -> str:
    """The phrases of :func:`phrases` as one regex alternation (no edges: callers add their own)."""
    return "|".join(re.escape(p) for p in phrases(kind))


def says_currently(question: str) -> bool:
    """Does the question ask about now ("currently", "derzeit", "actualmente", "obecnie", "目前")?"""
    return has_any(fold(question), phrases("currently"))


def about_people(words: list[str]) -> bool:
    """Does one of the (folded) words ask about people in any listed language ("who", "wer", "qui", "kto")?"""
    asked = set(phrases("about_people"))
    return any(w in asked for w in words)


def stopwords(lang: str | None = None) -> frozenset[str]:
    """Question words of every language, or of one language and English (folded)."""
    if lang is None:
        return _question_words()[0]
    per = _question_words()[2]
    return per.get("en", frozenset()) | per.get(lang, frozenset())


def question_language(question: str) -> str:
    """"zh", "ja", or the Latin-script language whose question words the question uses most (default "en")."""
    if _KANA.search(question):
        return "ja"
    if _CJK.search(question):
        return "zh"
    words = [fold(w) for w in _WORD.findall(question)]
    scores = {lang: sum(w in ws for w in words) for lang, ws in _question_words()[2].items()}
    best = max(scores.items(), key=lambda kv: (kv[1], kv[0] == "en"), default=("en", 0))
    return best[0] if best[1] else "en"


def in_unlisted_language(question: str, terms: list[str], library_words: frozenset[str]) -> bool:
    """Is the question written in a language with no word list (Swahili, Hungarian, ...)?

    True when the words no CV uses outnumber the question words of the best-matching
    listed language: "Nani anajua Kafka?" (no listed word, two unknown ones), not
    "Who holds a security clearance?" (three English question words, one unknown).
    Such a question's unknown words are its own question words, not evidence to require.
    """
    if _CJK.search(question):
        return False
    unknown = [t for t in terms if t not in library_words]
    if not unknown:
        return False
    words = [fold(w) for w in _WORD.findall(question)]
    hits = max((sum(w in ws for w in words) for ws in _question_words()[2].values()), default=0)
    return hits < len(unknown)


def strip_cjk(text: str) -> str:
    """Remove CJK question particles and meta words ("哪些候选人会" → "")."""
    out = fold(text)
    for w in _question_words()[1]:
        out = out.replace(w, " ")
    return out


def _phrase_pattern(phrase: str) -> str:
    if phrase.endswith("*"):
        return re.escape(phrase[:-1]) + r"\w*"
    return re.escape(phrase) + r"(?!\w)"


@functools.lru_cache(maxsize=4096)
def _matcher(phrases: tuple[str, ...]) -> tuple[re.Pattern | None, tuple[str, ...]]:
    """One compiled alternation for the Latin phrases (longest first) and the CJK phrases apart."""
    latin = sorted((p for p in phrases if p and not _CJK.search(p)), key=len, reverse=True)
    cjk = tuple(p for p in phrases if p and _CJK.search(p))
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(_phrase_pattern(p) for p in latin) + ")") if latin else None
    return pattern, cjk


def has_phrase(text_folded: str, phrase: str) -> bool:
    """Whole-word (or prefix, with a trailing '*') match of a folded phrase; CJK by substring."""
    return has_any(text_folded, (phrase,))


def has_any(text_folded: str, phrases: tuple[str, ...]) -> bool:
    """Does the folded text contain one of the phrases (compiled once per phrase set)?"""
    pattern, cjk = _matcher(tuple(phrases))
    return bool((pattern and pattern.search(text_folded)) or any(p in text_folded for p in cjk))


def phrase_spans(text_folded: str, phrases: tuple[str, ...]) -> list[tuple[int, int]]:
    """Every (start, end) where one of the folded phrases occurs (whole words; CJK by substring)."""
    pattern, cjk = _matcher(tuple(phrases))
    spans = [m.span() for m in pattern.finditer(text_folded)] if pattern else []
    for p in cjk:
        spans += [(m.start(), m.end()) for m in re.finditer(re.escape(p), text_folded)]
    return sorted(spans)


def _longest_span(text_folded: str, phrases: tuple[str, ...]) -> tuple[int, int] | None:
    """The longest occurrence of any of the phrases in the folded text."""
    pattern, cjk = _matcher(phrases)
    spans = [m.span() for m in pattern.finditer(text_folded)] if pattern else []
    for p in cjk:
        i = text_folded.find(p)
        if i >= 0:
            spans.append((i, i + len(p)))
    return max(spans, key=lambda s: s[1] - s[0]) if spans else None


def concepts_in(question: str) -> list[Concept]:
    """The concepts a question asks about, most specific (longest phrase) first.

    A concept whose words lie inside a longer phrase of another concept is not asked about:
    "e-mail address" is an e-mail, not a postal address.
    """
    q = fold(question)
    found: list[tuple[int, tuple[int, int], Concept]] = []
    for c in concepts():
        best = _longest_span(q, c.question)
        if best:
            found.append((best[1] - best[0], best, c))
    found.sort(key=lambda t: -t[0])
    taken: list[tuple[int, int]] = []
    out: list[Concept] = []
    for _, (a, b), c in found:
        if any(a >= x and b <= y for x, y in taken):
            continue
        taken.append((a, b))
        out.append(c)
    return out


def matched_phrases(question: str, concept: Concept) -> list[str]:
    """The concept's question phrases that occur in the question (folded)."""
    q = fold(question)
    return [w for w in concept.question if _longest_span(q, (w,))]


def concept_question_words(found: list[Concept]) -> set[str]:
    """The question words consumed by the concepts (folded single words)."""
    return {w.rstrip("*") for c in found for phrase in c.question for w in phrase.split()}


def line_states(line: str, concept: Concept) -> bool:
    """Does a CV line use one of the concept's evidence words?"""
    return has_any(fold(line), concept.evidence)


def content_words(question: str) -> list[str]:
    """Folded words of the question that are not question words (CJK runs kept as one term each)."""
    stop = stopwords()
    out: list[str] = []
    latin = _CJK.sub(" ", question)
    for w in _WORD.findall(latin.replace("’", "'")):
        f = re.sub(r"'s$", "", fold(w))
        for part in ([f] if "'" not in f else [p for p in f.split("'") if len(p) > 2]):  # "c'est", "who've"
            if part and part not in stop and part not in out and not part.isdigit():
                out.append(part)
    for run in re.findall(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+", strip_cjk(question)):
        for piece in re.findall(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+", strip_cjk(run)):
            if len(piece) >= 2 and piece not in out:
                out.append(piece)
    return out
