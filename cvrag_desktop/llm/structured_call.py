"""Validated JSON replies: :func:`complete_structured` (schema → looser JSON → one repair).

Split from :mod:`cvrag_desktop.llm.gateway`, which owns the transport (LiteLLM calls,
response-format fallbacks, error mapping); this module owns the contract (the schema in
the prompt, parsing, the repair round).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from cvrag_desktop.errors import LlmOutputInvalid
from cvrag_desktop.llm.config import ModelRoute
from cvrag_desktop.llm.gateway import (
    Message,
    call_formatted,
    guarded,
    load_litellm,
    map_error,
    reply_cap,
    resolve_route,
    run_with_deadline,
    too_large,
)
from cvrag_desktop.llm.structured import describe_invalid, parse_structured, strict_json_schema

log = logging.getLogger(__name__)
T = TypeVar("T", bound=BaseModel)
_MAX_ECHO = 4000  # characters of a bad reply sent back in the repair prompt


def _schema_messages(messages: Sequence[Message], schema: dict[str, Any]) -> list[Message]:
    """Add the output contract to the system message (needed for the json_object fallback)."""
    contract = (
        "Reply with exactly one JSON object that conforms to this JSON schema. "
        "No prose, no code fences. Use null or [] for anything not stated.\n"
        f"JSON schema: {json.dumps(schema, separators=(',', ':'))}"
    )
    msgs = [dict(m) for m in messages]
    if msgs and msgs[0].get("role") == "system" and isinstance(msgs[0].get("content"), str):
        # one system message: several confuse (or are rejected by) some chat templates
        msgs[0]["content"] = f"{msgs[0]['content']}\n\n{contract}"
        return msgs
    return [{"role": "system", "content": contract}, *msgs]


def _structured_reply(route: ModelRoute, messages: list[Message], schema: dict[str, Any], name: str,
                      **limits: Any) -> str:
    """The raw text of a JSON reply, within the route's deadline and the reply-size cap."""
    cap = reply_cap(limits.get("max_tokens"))

    def work(_abandoned) -> str:
        response = call_formatted(route, messages, schema, name, **limits)
        text = response.choices[0].message.content or ""
        if len(text) > cap:
            raise too_large(route, cap)
        return text

    load_litellm()  # imported before the clock starts
    return run_with_deadline(work, route.timeout, route)


def complete_structured(
    alias: str,
    messages: Sequence[Message],
    schema_model: type[T],
    *,
    timeout: float | None = None,
    base_url: str | None = None,
    preflight: bool = True,
    max_tokens: int | None = None,
) -> T:
    """A reply validated as ``schema_model`` (JSON schema → json_object fallback → one repair).

    The reply may carry code fences or leading prose (stripped). If it still fails
    validation, the error is sent back once for a corrected reply; then
    :class:`LlmOutputInvalid` is raised. Connection problems raise :class:`LlmUnavailable`.
    """
    route = resolve_route(alias, base_url, timeout, preflight)
    schema = strict_json_schema(schema_model)
    base_messages = _schema_messages(messages, schema)
    attempt_messages = base_messages
    error: Exception | None = None
    for attempt in range(2):
        def call(messages: list[Message] = attempt_messages) -> str:
            try:
                return _structured_reply(route, messages, schema, schema_model.__name__,
                                         **({"max_tokens": max_tokens} if max_tokens else {}))
            except Exception as exc:
                mapped = map_error(exc, route)
                if mapped is exc:
                    raise
                raise mapped from exc

        raw = guarded(route, call)
        try:
            return parse_structured(raw, schema_model)
        except (ValueError, ValidationError) as exc:
            error = exc
            log.info("structured reply invalid (attempt %d): %s", attempt + 1, describe_invalid(exc))
            attempt_messages = [
                *base_messages,
                {"role": "assistant", "content": raw[:_MAX_ECHO]},
                {
                    "role": "user",
                    "content": "That reply was rejected:\n"
                    f"{describe_invalid(exc)}\n"
                    "Reply again with only the corrected JSON object, conforming to the schema.",
                },
            ]
    raise LlmOutputInvalid(
        f"The language model ({route.model}) did not produce a valid {schema_model.__name__}: "
        f"{describe_invalid(error) if error else 'no reply'}"
    )
