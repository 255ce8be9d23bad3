"""The answer contract: ``{status: answered|unknown, answer, citations}`` and its checks.

A model's reply is accepted only if it parses, cites only evidence ids it was given,
cites at least one when it claims an answer, every cited excerpt mentions something
the question asked about, and every candidate it names is one whose excerpt it cites.
Every claim sentence must also be supported by the text of the excerpts it cites
(:mod:`.support`). Otherwise it is sent back once with the reason; a second failure (or
no model) gives the deterministic answer: the very one the no-model mode gives.
"""

from __future__ import annotations

import json
import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from cvrag_desktop.assistant.answer.support import unsupported_claims
from cvrag_desktop.assistant.understand.question import concepts, line_states
from cvrag_desktop.text.keys import text_key
from cvrag_desktop.text.stems import suffix_stem
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from cvrag_desktop.text.vocab.skills import skill_key

_MARK = re.compile(r"\[(E\d+)\]")


class AnswerReply(BaseModel):
    """What the model must return."""

    model_config = ConfigDict(extra="forbid")

    status: Literal["answered", "unknown"]
    answer: str
    citations: list[str] = Field(default_factory=list)


def support_terms(plan: dict) -> list[str]:
    """What an excerpt must mention to support an answer: content terms + filter skills/languages."""
    terms = [suffix_stem(t) for t in plan.get("terms", [])]
    filters = plan.get("filters", {})
    return terms + [f"skill:{skill_key(s)}" for s in filters.get("skills", [])]


def mentions(text: str, terms: list[str]) -> set[str]:
    """The support terms a text mentions (stemmed words; skills through the alias table)."""
    words = {suffix_stem(w) for w in re.findall(r"\w+", text_key(text))}
    out = {t for t in terms if not t.startswith("skill:") and t in words}
    skill_terms = [t for t in terms if t.startswith("skill:")]
    if skill_terms:
        found = {f"skill:{skill_key(m.group(0))}" for m in load_lexicon().skill_pattern.finditer(text)}
        out |= {t for t in skill_terms if t in found}
    return out


def excerpt_supports(text: str, plan: dict, terms: list[str]) -> bool:
    """Does an excerpt show what was asked: the concept asked about (when there is one), else the terms?"""
    by_id = {c.cid: c for c in concepts()}
    wanted = [by_id[c] for c in plan.get("concepts") or [] if c in by_id]
    if wanted:
        return line_states(text, wanted[0])
    return not terms or bool(mentions(text, terms))


def validate_reply(reply: AnswerReply, evidence: list[dict], plan: dict, known_names: dict[str, str],
                   question: str = "") -> str | None:
    """Why the reply is rejected, or None when it passes.

    Beyond the citation checks, every claim sentence must be supported by the excerpts it
    cites (:mod:`.support`): a real id attached to invented facts is rejected too.
    """
    given = {e["evidence_id"]: e for e in evidence}
    cited = list(dict.fromkeys(reply.citations + _MARK.findall(reply.answer)))
    invented = [c for c in cited if c not in given]
    if invented:
        return f"it cites ids that were not given: {', '.join(invented)} (given: {', '.join(given)})"
    if not reply.answer.strip():
        return "the answer text is empty"
    if reply.status == "unknown":
        return None
    if not cited:
        return "an answered reply must cite at least one excerpt id"
    terms = support_terms(plan)
    for c in cited:
        # also for a candidate the question names: "What is Ana's notice period?" cited to any
        # excerpt of Ana's CV is an invented answer unless that excerpt mentions a notice period
        if not excerpt_supports(given[c]["text"], plan, terms):
            return f"excerpt {c} does not mention what the question asks about"
    cited_people = {given[c]["candidate_id"] for c in cited}
    answer_key = f" {text_key(reply.answer)} "
    for cid, name in known_names.items():
        key = text_key(name)
        if cid not in cited_people and len(key) > 5 and f" {key} " in answer_key:
            return f"it names {name} without citing an excerpt of that candidate"

    names = [known_names[cid] for cid in cited_people if cid in known_names]
    unsupported = unsupported_claims(reply.answer, cited, given, question, names)
    if unsupported:
        return unsupported[0].reason()
    return None


def cited_ids(reply: AnswerReply) -> list[str]:
    """Citation ids of a reply, including inline [E3] markers, in order."""
    return list(dict.fromkeys(reply.citations + _MARK.findall(reply.answer)))


class DraftExtractor:
    """Pulls the growing ``answer`` string out of a streamed JSON reply (for the draft display)."""

    _START = re.compile(r'"answer"\s*:\s*"')

    def __init__(self) -> None:
        self.raw = ""
        self.shown = 0

    def feed(self, piece: str) -> str:
        """Add a streamed piece; returns the new draft text to show (may be "")."""
        self.raw += piece
        m = self._START.search(self.raw)
        if not m:
            return ""
        body = self.raw[m.end():]
        out, i = [], 0
        while i < len(body):
            ch = body[i]
            if ch == '"':
                break
            if ch == "\\":
                if i + 1 >= len(body):
                    break
                esc = body[i: i + 6] if body[i + 1] == "u" else body[i: i + 2]
                if body[i + 1] == "u" and len(esc) < 6:
                    break
                try:
                    out.append(json.loads(f'"{esc}"'))
                except ValueError:
                    out.append(esc)
                i += len(esc)
                continue
            out.append(ch)
            i += 1
        text = "".join(out)
        new = text[self.shown:]
        self.shown = len(text)
        return new
