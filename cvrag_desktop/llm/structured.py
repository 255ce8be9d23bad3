"""Structured output helpers: a strict-friendly JSON schema, and tolerant JSON parsing.

Small local models wrap JSON in code fences, prefix it with prose, or emit ``null``
for a list they were told to give; constrained decoding (Ollama's ``format``) works
best with a self-contained schema where every property is required. These helpers
bridge the two without loosening validation: the pydantic model (``extra="forbid"``)
still has the last word.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

T = TypeVar("T", bound=BaseModel)

_DROP_KEYS = {"title", "default", "examples"}
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)


def _is_nullable(node: dict[str, Any]) -> bool:
    if node.get("type") == "null" or (isinstance(node.get("type"), list) and "null" in node["type"]):
        return True
    return any(isinstance(o, dict) and o.get("type") == "null" for o in node.get("anyOf", []))


def strict_json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema made self-contained and strict-friendly.

    ``$ref``/``$defs`` are inlined, every object lists all its properties as required
    and forbids others, properties that were optional become nullable, and titles and
    defaults are dropped (they cost prompt tokens and some grammars reject them).
    Raises ``ValueError`` for recursive models.
    """
    raw = model.model_json_schema()
    defs: dict[str, Any] = raw.pop("$defs", {})

    def walk(node: Any, depth: int) -> Any:
        if depth > 32:
            raise ValueError(f"{model.__name__}: recursive schema cannot be inlined")
        if isinstance(node, list):
            return [walk(n, depth + 1) for n in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            target = copy.deepcopy(defs[node["$ref"].rsplit("/", 1)[-1]])
            target.update({k: v for k, v in node.items() if k != "$ref"})
            return walk(target, depth + 1)
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in _DROP_KEYS:
                continue
            if key == "properties" and isinstance(value, dict):
                out[key] = {name: walk(sub, depth + 1) for name, sub in value.items()}
            else:
                out[key] = walk(value, depth + 1)
        if out.get("type") == "object" and isinstance(out.get("properties"), dict):
            required = set(node.get("required", []))
            props = out["properties"]
            for name, sub in props.items():
                if name not in required and isinstance(sub, dict) and not _is_nullable(sub):
                    props[name] = {"anyOf": [sub, {"type": "null"}]}
            out["required"] = list(props)
            out["additionalProperties"] = False
        return out

    return walk(raw, 0)


def extract_json_text(text: str) -> str:
    """The JSON value inside a model reply: fences, ``<think>`` blocks and prose stripped.

    Raises ``ValueError`` when no JSON object or array can be found.
    """
    cleaned = _THINK.sub("", text).strip()
    fenced = _FENCE.search(cleaned)
    if fenced:
        cleaned = fenced.group(1).strip()
    decoder = json.JSONDecoder()
    for match in re.finditer(r"[{\[]", cleaned):
        try:
            _, end = decoder.raw_decode(cleaned, match.start())
        except ValueError:
            continue
        return cleaned[match.start() : end]
    raise ValueError("the reply contains no JSON object")


def _delete_at(data: Any, loc: tuple[Any, ...]) -> bool:
    """Remove the item at ``loc`` (a pydantic error location) if it exists."""
    node = data
    for part in loc[:-1]:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return False
    last = loc[-1]
    if isinstance(node, dict) and last in node:
        del node[last]
        return True
    return False


def validate_lenient(model: type[T], data: Any) -> T:
    """Validate ``data``; a ``null`` given for a field that has a non-null default is dropped.

    Strict schemas make every property required, so models emit ``null`` for empty lists
    or flags; treating that as "use the default" is safe. Any other error (wrong type,
    unknown key, bad pattern) still raises ``ValidationError``.
    """
    data = copy.deepcopy(data)
    for _ in range(64):
        try:
            return model.model_validate(data)
        except ValidationError as exc:
            removed = False
            for err in exc.errors():
                if err.get("input", ...) is None and err.get("type") != "missing" and err.get("loc"):
                    removed |= _delete_at(data, tuple(err["loc"]))
            if not removed:
                raise
    return model.model_validate(data)


def parse_structured(text: str, model: type[T]) -> T:
    """Parse a model reply into ``model``; raises ``ValueError``/``ValidationError`` when invalid."""
    payload = json.loads(extract_json_text(text))
    return validate_lenient(model, payload)


def describe_invalid(exc: Exception, limit: int = 12) -> str:
    """A compact, model-readable account of why a reply was rejected (for the repair prompt)."""
    if isinstance(exc, ValidationError):
        lines = []
        for err in exc.errors(include_url=False)[:limit]:
            loc = ".".join(str(p) for p in err.get("loc", ())) or "(root)"
            lines.append(f"- {loc}: {err.get('msg')}")
        more = exc.error_count() - limit
        if more > 0:
            lines.append(f"- ... and {more} more")
        return "\n".join(lines)
    return f"- {exc}"
