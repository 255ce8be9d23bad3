"""Follow-ups that narrow the previous answer: "which of them know Python?", "and in Berlin?", "only the seniors".

A question that refers to the previous answer's people as a group ("of them", "von
ihnen", "z nich") or only adds a filter to it (starts "and …", "only …", "und …", "tylko …")
is read without those words, and what is left filters the people of the thread's previous
answer (``within``: their document ids). The answer shows the question as it was read.
With no previous answer in the thread, the question is answered on its own, with a note.
The phrases are data (``follow_up`` in ``resources/question_words.yaml``).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from cvrag_desktop.text.fold import fold
from cvrag_desktop.text.vocab.resources import resource_yaml
from cvrag_desktop.text.vocab.titles import SENIORITY_WORDS

NO_PREVIOUS = "There is no earlier answer in this conversation to narrow, so this was answered as a question on its own."


@dataclass(frozen=True)
class FollowUp:
    """What a follow-up question asks once its reference to the previous answer is taken out."""

    kind: str  # "group" or "elliptic"
    rest: str  # the question without the reference words ("know Python?", "in Berlin?")
    phrase: str  # the words taken out


@functools.lru_cache(maxsize=1)
def _phrases() -> dict[str, tuple[str, ...]]:
    data = resource_yaml("question_words.yaml") or {}
    out = {}
    for kind, langs in (data.get("follow_up") or {}).items():
        found = {fold(str(p)) for words in (langs or {}).values() for p in words or []}
        out[kind] = tuple(sorted((p for p in found if p), key=len, reverse=True))
    return out


def follow_up(question: str) -> FollowUp | None:
    """The follow-up reading of a question, or None when it stands on its own."""
    q = " ".join(question.split())
    folded = fold(q)
    if len(folded) != len(q):  # folding changed the length (rare ligatures): compare without positions
        q = folded
    for phrase in _phrases().get("group", ()):
        m = re.search(r"(?<![\w'-])" + re.escape(phrase) + r"(?![\w'-])", folded)
        if m and phrase not in ("them",):
            return FollowUp("group", _cut(q, m.start(), m.end()), phrase)
    for phrase in _phrases().get("elliptic", ()):
        m = re.match(re.escape(phrase) + r"(?=[\s,]+\S)", folded)
        if m:
            return FollowUp("elliptic", _cut(q, m.start(), m.end()), phrase)
    m = re.search(r"(?<![\w'-])them(?![\w'-])", folded)
    if m:
        return FollowUp("group", _cut(q, m.start(), m.end()), "them")
    return None


def _cut(question: str, start: int, end: int) -> str:
    rest = (question[:start] + " " + question[end:]).strip(" ,")
    rest = re.sub(r"^(which|who|welche|wer|quiénes|cuáles|qui|quali|chi|quais|quem|welke|wie|którzy|kto)\s+"
                  r"(?=(?:which|who|welche|wer)\b)", "", rest, flags=re.I)
    return " ".join(rest.split()) or question


def seniority_titles(rest: str) -> tuple[list[str], str]:
    """Seniority words of a follow-up as title filters, and the question without them ("the seniors")."""
    titles, kept = [], []
    for w in rest.split():
        bare = w.strip("?!.,;:¿¡")
        hit = next((name for name, pat in SENIORITY_WORDS if pat.match(bare)), None)
        if hit:
            titles.append(hit)
        else:
            kept.append(w)
    return titles, " ".join(kept)


def previous_people(messages: list[dict]) -> tuple[list[str], str] | None:
    """The document ids of the thread's latest answer about some people, and the question it answered.

    An answer that found no one is skipped: narrowing it could only find no one again.
    """
    for i in range(len(messages) - 1, -1, -1):
        m = messages[i]
        if m.get("role") != "assistant":
            continue
        ids = m.get("people") or [c["candidate_id"] for c in m.get("candidates") or []]
        if ids:
            return list(ids), m.get("asked") or (messages[i - 1].get("content", "") if i else "")
    return None


def rewritten(rest: str, count: int, asked: str) -> str:
    """The question as read, shown in the answer: "know Python? — among the 5 people of “who worked at Google?”"."""
    return f"{rest} — among the {count} {'person' if count == 1 else 'people'} of the previous answer (“{asked}”)"
