"""A relevance floor for ranked search: which people a query actually matches, and which only rank.

Fused dense + BM25 ranking always returns someone: the dense branch has a nearest
neighbour for any text, so "nurse" ranked 39 of 45 people in a folder with no nurse. A
person is a *main* match when their passages among the hits state enough of the query's
words (:data:`FLOOR`, the share of content words found, calibrated on the labelled folders
with ``benchmarks/search_relevance.py``); the rest are *weaker* matches, shown only on
request. A word is found as a whole word, or for words of five letters or more by its stem
(all but the last two letters, at least four: "nurse" finds "nurses", "nursing"); symbols
are kept ("C++", "C#"), and four-letter words are whole words ("Java" is not "JavaScript").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cvrag_desktop.text.fold import fold_keep_spacing
from cvrag_desktop.text.stems import prefix_stem

FLOOR = 0.67  # share of the query's content words a person's passages must state (see module doc)
_STOP_WORDS = (
    "a an the and or of in at on for to with by from as is are who what which where how any all "
    "und oder mit der die das den dem des ein eine in im am von zu für "
    "y o con el la los las de del en un una para "
    "et ou avec le les des du au aux pour dans une "
    "e con il lo gli di da per nel "
    "com os as do da dos das no na em para um uma "
    "en of met het een van voor op "
    "i lub z ze w we na do od dla")
STOP = frozenset(_STOP_WORDS.split())
_WORD = re.compile(r"[^\W_]+(?:[+#]+|(?:\.[^\W_]+)+)?|[+#]+", re.UNICODE)


def words_of(text: str) -> set[str]:
    """The folded words of a text, symbols kept ("c++", "c#", "node.js")."""
    return set(_WORD.findall(fold_keep_spacing(text)))


def content_words(query: str) -> list[str]:
    """The words of a query that must be found (stopwords and one-letter words left out, "C" kept)."""
    words = [w for w in _WORD.findall(fold_keep_spacing(query)) if w not in STOP and (len(w) > 1 or w in ("c", "r"))]
    return list(dict.fromkeys(words))


def found(word: str, words: set[str]) -> bool:
    """Whether a query word is stated: the same word, or (five letters or more) a word its stem starts."""
    if word in words:
        return True
    if len(word) < 5 or not word.isalpha():
        return False
    stem = prefix_stem(word)
    return any(w.startswith(stem) for w in words)


@dataclass
class PersonMatch:
    """One person's share of the query's words stated by their passages among the hits."""

    key: str
    coverage: float = 0.0
    words: set[str] = field(default_factory=set)


def split_by_floor(hits: list[dict], query: str, key=lambda h: h["candidate_id"],
                   floor: float = FLOOR) -> tuple[list[dict], list[dict], dict[str, float]]:
    """The hits of people above the floor, those of the others, and each person's coverage.

    ``key`` groups hits into people (document id by default; the GUI passes its person id).
    A query with no content word keeps every hit main.
    """
    wanted = content_words(query)
    texts: dict[str, list[str]] = {}
    for h in hits:
        texts.setdefault(key(h), []).append(h.get("text") or "")
    coverage: dict[str, float] = {}
    for person, parts in texts.items():
        words = words_of(" ".join(parts))
        coverage[person] = (sum(found(w, words) for w in wanted) / len(wanted)) if wanted else 1.0
    main = [h for h in hits if coverage[key(h)] >= floor and (not wanted or coverage[key(h)] > 0)]
    weaker = [h for h in hits if not (coverage[key(h)] >= floor and (not wanted or coverage[key(h)] > 0))]
    return main, weaker, coverage
