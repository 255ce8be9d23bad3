"""Does a claim say the opposite of the line it cites? Negation scope, in several languages.

"Ana has no Kafka experience at all [E1]", cited to "Built Kafka pipelines", uses only words
the excerpt has, so the lexical support check (:mod:`.support`) passed it. Here each topic of
a claim (a skill, or a content word the excerpt also has) gets a polarity in the claim and in
the excerpt: negated when a negation cue governs it. A claim is rejected when a topic it
negates is written only positively in the excerpt, or a topic it states positively is written
only negated there; a negative the excerpt also states ("has no driving licence" /
"No driving licence") agrees and passes, and a topic written both ways is left alone.

Scope, kept cheap: a determiner or preposition cue ("no", "without", "kein", "sans",
"ningún", "sem", "geen", ...) governs the next words of its clause; a verbal cue ("not",
"never", "nicht", "pas", "nunca", "não", "niet", ...) also the words just before it in the
clause ("Kafka kennt sie nicht"). Clauses end at punctuation and at "but"-words. "not only",
"no longer" and their like are not negations of the topic. Portuguese "no" ("in the") is
not read as a cue when the claim or its excerpt looks Portuguese.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cvrag_desktop.text.keys import text_key
from cvrag_desktop.text.stems import suffix_stem
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from cvrag_desktop.text.vocab.skills import skill_key


def _wordset(text: str) -> frozenset[str]:
    """A set of words written as one spaced string (data kept readable)."""
    return frozenset(text.split())


# cues that govern what follows them (a determiner, a preposition)
FORWARD_CUES = _wordset("""
no without lacks lack lacking lacked none neither nor
kein keine keinen keinem keiner keines keinerlei ohne
aucun aucune sans
sin ningun ninguna ninguno
sem nenhum nenhuma
geen zonder
senza nessun nessuna nessuno
""")
# cues that govern the words before them in the clause as well (verbal negation)
VERBAL_CUES = _wordset("""
not never cannot isnt doesnt dont didnt hasnt havent hadnt wasnt werent wont
nicht nie niemals pas jamais ne nunca jamas nao nooit niet non mai
""")
# a cue followed by one of these is not a negation of the topic ("not only", "no longer")
NOT_NEGATING_NEXT = _wordset("""
only just merely solely longer anymore more nur mehr seulement plus solo solamente mas so somente
alleen meer solo piu
""")
CLAUSE_BREAK_WORDS = _wordset("""
but however although though whereas while yet aber jedoch sondern obwohl mais cependant pourtant pero sino
aunque mas porem contudo maar echter ma pero tuttavia
""")
PORTUGUESE_HINTS = _wordset("com uma pelo pela nao em sem tambem voce ate trabalhou")
FORWARD_REACH = 6  # words after a cue that it governs
BACKWARD_REACH = 4  # words before a verbal cue that it governs

_CLAUSE = re.compile(r"[,;:.!?()\[\]\n|/•·]+|\s[-–—]\s")
_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


@dataclass
class Topic:
    """A topic of a text (a skill key, or a folded content word's stem) and how it is written there."""

    key: str
    negated: bool
    shown: str


def _words(clause: str) -> list[tuple[str, str]]:
    """(folded word, as written) for each word of a clause; "doesn't" is one word "doesnt"."""
    out = []
    for raw in _TOKEN.findall(clause):
        folded = text_key(raw.replace("’", "").replace("'", ""))
        for w in folded.split():
            out.append((w, raw))
    return out


def _negated_positions(words: list[str], portuguese: bool) -> set[int]:
    """Positions of a clause's words that a negation cue governs."""
    governed: set[int] = set()
    for i, w in enumerate(words):
        forward = w in FORWARD_CUES and not (w == "no" and portuguese)
        verbal = w in VERBAL_CUES
        if not (forward or verbal):
            continue
        if i + 1 < len(words) and words[i + 1] in NOT_NEGATING_NEXT:
            continue
        if w == "mai" and any(x.isdigit() for x in words[max(0, i - 2):i + 3]):
            continue  # "Mai 2019", "1 mai": the month (German, French), not Italian "never"
        if w == "ne" and not any(x in ("pas", "jamais", "aucun", "aucune", "plus") for x in words[i + 1:i + 5]):
            continue  # French "ne" counts only with its partner (which is a cue of its own)
        governed.update(range(i + 1, min(len(words), i + 1 + FORWARD_REACH)))
        if verbal:
            governed.update(range(max(0, i - BACKWARD_REACH), i))
    return governed


_NON_COMPOUND = re.compile(r"\b(non)-(?=[^\W\d_])", re.IGNORECASE)


def _clauses(text: str) -> list[str]:
    parts = []
    text = _NON_COMPOUND.sub(r"\1", text)  # "non-blocking" is one word, not the cue "non" before "blocking"
    for piece in _CLAUSE.split(text):
        words = piece.split()
        current: list[str] = []
        for word in words:
            if text_key(word) in CLAUSE_BREAK_WORDS and current:
                parts.append(" ".join(current))
                current = []
            current.append(word)
        if current:
            parts.append(" ".join(current))
    return parts


def looks_portuguese(text: str) -> bool:
    """True when ``text`` has a Portuguese word or letter (then "no" is "in the", not a negation)."""
    lower = text.lower()
    return bool(set(text_key(text).split()) & PORTUGUESE_HINTS) or "ã" in lower or "õ" in lower


def topics(text: str, ignore: set[str] | frozenset[str] = frozenset(), portuguese: bool | None = None) -> list[Topic]:
    """Every skill and content word of ``text`` with its polarity (words in ``ignore`` skipped)."""
    if portuguese is None:
        portuguese = looks_portuguese(text)
    pattern = load_lexicon().skill_pattern
    out: list[Topic] = []
    for clause in _clauses(text):
        pairs = _words(clause)
        words = [w for w, _ in pairs]
        negated = _negated_positions(words, portuguese)
        skill_spans = [(m.group(0), skill_key(m.group(0))) for m in pattern.finditer(clause)]
        skill_words = {w for shown, _ in skill_spans for w in text_key(shown).split()}
        for shown, key in skill_spans:
            first = text_key(shown).split()
            at = next((i for i, w in enumerate(words) if first and w == first[0]), None)
            out.append(Topic(f"skill:{key}", at is not None and at in negated, shown))
        for i, (w, raw) in enumerate(pairs):
            if len(w) < 4 or w in ignore or w in skill_words or w in FORWARD_CUES or w in VERBAL_CUES:
                continue
            out.append(Topic(f"word:{suffix_stem(w)}", i in negated, raw))
    return out


@dataclass
class PolarityClash:
    """A claim topic whose polarity the cited excerpt contradicts."""

    shown: str
    claim_negated: bool

    def reason(self) -> str:
        """Why the claim was rejected, in words for the repair prompt and the notes."""
        if self.claim_negated:
            return f"it denies {self.shown!r}, which the excerpt it cites states"
        return f"it states {self.shown!r}, which the excerpt it cites denies"


def polarity_clashes(claim: str, evidence: list[str], ignore: set[str] | frozenset[str]) -> list[PolarityClash]:
    """Topics ``claim`` writes with the opposite polarity of every mention in ``evidence``."""
    portuguese = looks_portuguese(" ".join([claim, *evidence]))  # the claim may echo the excerpt's language
    seen: dict[str, set[bool]] = {}
    for text in evidence:
        for t in topics(text, ignore, portuguese):
            seen.setdefault(t.key, set()).add(t.negated)
    said: dict[str, set[bool]] = {}
    shown: dict[str, str] = {}
    for t in topics(claim, ignore, portuguese):
        said.setdefault(t.key, set()).add(t.negated)
        shown.setdefault(t.key, t.shown)
    return [PolarityClash(shown[key], negated)
            for key, polarities in said.items() if len(polarities) == 1
            for negated in polarities if seen.get(key) == {not negated}]
