"""The optional language-model steps: standalone rewrite, routing, and the cited answer.

Each step is one call through :mod:`cvrag_desktop.llm` and each output is checked
before use: a rewrite must keep the question's names and numbers, router filters must
be written in the question (or resolve through the alias tables), and an answer must
pass :func:`~.answer.validate_reply` (one retry with the reason, then the caller falls
back to the extractive answer). Failures raise the gateway's ``LLM_ERRORS``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from cvrag_desktop.assistant import prompts
from cvrag_desktop.assistant.answer.contract import AnswerReply, DraftExtractor, validate_reply
from cvrag_desktop.assistant.understand.plan import Plan
from cvrag_desktop.errors import LlmOutputInvalid
from cvrag_desktop.llm import DEFAULT_ALIAS, QUALITY_ALIAS, complete_structured, complete_text
from cvrag_desktop.llm.structured import parse_structured
from cvrag_desktop.text.keys import text_key
from cvrag_desktop.text.vocab.languages import canonical_language
from cvrag_desktop.text.vocab.skills import canonical_skill

# reply caps: generous for a well-behaved model, short enough that a rambling one is cut off in seconds
REWRITE_TOKENS = 200
ROUTER_TOKENS = 300
ANSWER_TOKENS = 900


class RewriteReply(BaseModel):
    """The standalone question."""

    model_config = ConfigDict(extra="forbid")

    standalone: str


class RouterReply(BaseModel):
    """Route and filters as the model sees them."""

    model_config = ConfigDict(extra="forbid")

    route: Literal["out_of_scope", "metadata", "hybrid", "hybrid_filtered", "analytics"]
    skills: list[str] = Field(default_factory=list)
    companies: list[str] = Field(default_factory=list)
    titles: list[str] = Field(default_factory=list)
    institutions: list[str] = Field(default_factory=list)
    languages: list[str] = Field(default_factory=list)
    min_years: int | None = None
    max_years: int | None = None
    location: str | None = None


def llm_rewrite(history: list[dict], question: str, *, base_url: str, timeout: float) -> str | None:
    """A standalone version of ``question`` given the history, or None when the model's is unusable."""
    reply = complete_structured(DEFAULT_ALIAS, prompts.rewrite_messages(history, question), RewriteReply,
                                base_url=base_url, timeout=timeout, max_tokens=REWRITE_TOKENS)
    text = " ".join(reply.standalone.split())
    if not text or len(text) > 600:
        return None
    digits = [w for w in question.split() if any(ch.isdigit() for ch in w)]
    if any(d.strip("?.,!+") not in text for d in digits):
        return None  # a rewrite that drops "5+ years" changes the question
    return text


def llm_route(question: str, det: Plan, *, base_url: str, timeout: float) -> Plan:
    """Merge the model's route and (verified) filters into the deterministic plan."""
    reply = complete_structured(DEFAULT_ALIAS, prompts.router_messages(question), RouterReply,
                                base_url=base_url, timeout=timeout, max_tokens=ROUTER_TOKENS)
    qkey = f" {text_key(question)} "
    filters = dict(det.filters)

    def written(v: str) -> bool:
        return bool(text_key(v)) and f" {text_key(v)} " in qkey

    skills = list(filters.get("skills", []))
    for s in reply.skills:
        canon = canonical_skill(s)
        if canon and canon not in skills and (written(s) or written(canon)):
            skills.append(canon)
    langs = list(filters.get("languages", []))
    for lang in reply.languages:
        canon = canonical_language(lang)
        if canon and canon not in langs and written(lang):
            langs.append(canon)
    # one phrase of the question fills one filter: a small model echoes "Figma" as a skill, a
    # place and a title, and AND-ed filters then match nobody
    taken = [set(text_key(v).split()) for k, vs in filters.items() if isinstance(vs, list) for v in vs]
    taken += [set(text_key(v).split()) for v in [*skills, *langs]]
    if isinstance(filters.get("location"), str):
        taken.append(set(text_key(filters["location"]).split()))

    def fresh(v: str) -> bool:
        words = set(text_key(v).split())
        if not words or not written(v) or canonical_skill(v) or canonical_language(v):
            return False
        if any(words <= t or t <= words for t in taken):
            return False
        taken.append(words)
        return True

    for key, values in (("companies", reply.companies), ("titles", reply.titles),
                        ("institutions", reply.institutions)):
        extra = [v for v in values if v not in filters.get(key, []) and fresh(v)]
        if extra:
            filters[key] = [*filters.get(key, []), *extra]
    if skills:
        filters["skills"] = skills
    if langs:
        filters["languages"] = langs
    for key in ("min_years", "max_years"):
        v = getattr(reply, key)
        if key not in filters and v is not None and str(v) in question:
            filters[key] = v
    if reply.location and "location" not in filters and fresh(reply.location):
        filters["location"] = reply.location
    plan = Plan(**{**det.to_dict(), "filters": filters})
    if det.route == "analytics" or (det.route != "out_of_scope" and reply.route == "out_of_scope"):
        return plan  # exact operations stay in code; entities found mean it is in scope
    if det.persons and det.route == "hybrid_filtered":
        return plan  # a question about named people is answered from their own CV lines
    route = reply.route if reply.route != "analytics" else det.route
    has_filters = bool(filters or plan.candidates)
    if route in ("metadata", "hybrid_filtered") and not has_filters:
        route = "hybrid"
    elif (route == "hybrid" and has_filters) or (route == "metadata" and plan.terms):
        route = "hybrid_filtered"
    plan.route = route
    return plan


def llm_answer(question: str, evidence: list[dict], plan: dict, known_names: dict[str, str], *, base_url: str,
               timeout: float, on_token: Callable[[str], None] | None = None,
               should_cancel: Callable[[], bool] | None = None) -> tuple[AnswerReply, list[str]]:
    """A validated cited answer (one retry after a rejection); raises ``LlmOutputInvalid`` when both fail."""
    messages = prompts.answer_messages(question, evidence)
    notes: list[str] = []
    for attempt in range(2):
        draft = DraftExtractor()

        def stream(piece: str, draft: DraftExtractor = draft) -> None:
            new = draft.feed(piece)
            if new and on_token is not None:
                on_token(new)

        raw = complete_text(QUALITY_ALIAS, messages, on_token=stream if on_token and attempt == 0 else None, timeout=timeout,
                            base_url=base_url, should_cancel=should_cancel, max_tokens=ANSWER_TOKENS,
                            json_schema=AnswerReply)
        try:
            reply = parse_structured(raw, AnswerReply)
            reason = validate_reply(reply, evidence, plan, known_names, question)
        except ValueError as exc:  # includes pydantic's ValidationError
            reason = f"it is not the JSON object described ({str(exc).splitlines()[0][:200]})"
        if reason is None:
            return reply, notes
        notes.append(f"answer rejected (attempt {attempt + 1}): {reason}")
        messages = [*messages, {"role": "assistant", "content": raw[:4000]}, prompts.repair_message(reason)]
    raise LlmOutputInvalid("; ".join(notes))
