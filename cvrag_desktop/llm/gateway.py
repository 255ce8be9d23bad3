"""The one door to language models: LiteLLM → local Ollama, by alias.

Two calls: :func:`complete_text` (optionally streamed token by token) and
:func:`~cvrag_desktop.llm.structured_call.complete_structured` (a validated pydantic
object, built on this module's :func:`call_formatted`). Both fail *fast and typed* so
callers can fall back to deterministic code: :class:`LlmUnavailable` when nothing
usable answers (refused, timed out, model missing, HTTP error, disabled by the user),
:class:`LlmOutputInvalid` when the model answered but not acceptably (after one
repair attempt for structured output).

LiteLLM takes seconds to import and would fetch a price list from the internet on
import unless told otherwise, so it is imported lazily, once, with
``LITELLM_LOCAL_MODEL_COST_MAP``/``LITELLM_OFFLINE_MODE`` set first; each configured
model is registered as a local zero-cost model so LiteLLM never asks the endpoint's
``/api/show`` (with its default 6000 s timeout) while computing costs.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel

from cvrag_desktop.errors import Cancelled, LlmOutputInvalid, LlmReplyTooLarge, LlmTimedOut, LlmUnavailable
from cvrag_desktop.llm.breaker import BREAKER
from cvrag_desktop.llm.config import ModelRoute, get_route, llm_enabled
from cvrag_desktop.llm.health import probe
from cvrag_desktop.llm.structured import strict_json_schema

log = logging.getLogger(__name__)
T = TypeVar("T", bound=BaseModel)
Message = dict[str, Any]

LLM_ERRORS: tuple[type[Exception], ...] = (LlmUnavailable, LlmOutputInvalid)
"""Catch these to fall back to the deterministic path."""

DEFAULT_REPLY_CAP = 64_000
"""Characters a reply may have when the caller sets no ``max_tokens`` (a 10 MB reply is refused)."""
CHARS_PER_TOKEN_CAP = 16


def reply_cap(max_tokens: int | None, cap: int | None = None) -> int:
    """The most characters a reply may have: explicit ``cap``, else ~16 per allowed token, else the default."""
    if cap:
        return cap
    if max_tokens:
        return max(4096, max_tokens * CHARS_PER_TOKEN_CAP)
    return DEFAULT_REPLY_CAP


def too_large(route: ModelRoute, cap: int) -> LlmReplyTooLarge:
    """The typed error for a reply over the size cap."""
    return LlmReplyTooLarge(f"The language model ({route.model}) sent a reply longer than {cap:,} characters; "
                            "it was refused (not shown, not stored).")


def run_with_deadline(work: Callable[[Callable[[], bool]], Any], deadline_s: float, route: ModelRoute,
                      should_cancel: Callable[[], bool] | None = None) -> Any:
    """Run ``work(abandoned)`` in a helper thread; give up at the deadline or on cancel.

    The per-read timeout of the HTTP client does not bound a server that trickles a byte
    every few seconds; this bounds connect + the whole reply. On giving up, ``abandoned()``
    turns true so a streaming loop stops at its next piece; the helper thread is a daemon.
    """
    box: dict[str, Any] = {}
    done = threading.Event()
    abandoned = threading.Event()

    def run() -> None:
        try:
            box["value"] = work(abandoned.is_set)
        except BaseException as exc:  # handed to the caller's thread
            box["error"] = exc
        finally:
            done.set()

    threading.Thread(target=run, name="llm-call", daemon=True).start()
    end = time.monotonic() + deadline_s
    while not done.wait(timeout=max(0.0, min(0.1, end - time.monotonic()))):
        if should_cancel is not None and should_cancel():
            abandoned.set()
            raise Cancelled("The language-model request was cancelled.")
        if time.monotonic() >= end:
            abandoned.set()
            raise LlmTimedOut(f"The language model ({route.model} at {route.api_base}) did not finish its reply "
                                 f"within the {deadline_s:g} s deadline; it was abandoned.")
    if "error" in box:
        raise box["error"]
    return box["value"]


_import_lock = threading.Lock()
_litellm: Any = None
_registered: set[str] = set()
_format_level: dict[tuple[str, str], int] = {}  # (api_base, model) -> first response format it accepted


def _ensure_no_proxy_for_loopback() -> None:
    for var in ("NO_PROXY", "no_proxy"):
        hosts = [h for h in os.environ.get(var, "").split(",") if h.strip()]
        for host in ("127.0.0.1", "localhost", "::1"):
            if host not in hosts:
                hosts.append(host)
        os.environ[var] = ",".join(hosts)


def load_litellm() -> Any:
    """Import and configure LiteLLM once: offline cost map, no telemetry, quiet, no retries."""
    global _litellm
    if _litellm is not None:
        return _litellm
    with _import_lock:
        if _litellm is None:
            os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
            os.environ.setdefault("LITELLM_OFFLINE_MODE", "true")
            os.environ.setdefault("LITELLM_TELEMETRY", "False")
            _ensure_no_proxy_for_loopback()
            import litellm

            litellm.telemetry = False  # gone from recent versions; harmless where it exists
            litellm.suppress_debug_info = True
            litellm.drop_params = True
            litellm.num_retries = 0
            litellm.disable_hf_tokenizer_download = True
            _litellm = litellm
    return _litellm


def _register(litellm: Any, route: ModelRoute) -> None:
    """Declare the model locally (zero cost, known context) so LiteLLM never looks it up remotely."""
    if route.model in _registered:
        return
    ctx = int(route.params.get("num_ctx") or 8192)
    provider = route.model.split("/", 1)[0] if "/" in route.model else "ollama_chat"
    # a local model is never in LiteLLM's price list; its warning about that is noise on stderr
    litellm_log = logging.getLogger("LiteLLM")
    level = litellm_log.level
    litellm_log.setLevel(logging.ERROR)
    try:
        _register_locally(litellm, route, provider, ctx)
    finally:
        litellm_log.setLevel(level)
    _registered.add(route.model)


def _register_locally(litellm: Any, route: ModelRoute, provider: str, ctx: int) -> None:
    litellm.register_model(
        {
            route.model: {
                "litellm_provider": provider,
                "mode": "chat",
                "input_cost_per_token": 0.0,
                "output_cost_per_token": 0.0,
                "max_tokens": ctx,
                "max_input_tokens": ctx,
                "max_output_tokens": ctx,
                "supports_response_schema": True,
            }
        }
    )


def resolve_route(alias: str, base_url: str | None, timeout: float | None, preflight: bool) -> ModelRoute:
    """Pick the route and refuse early (without importing LiteLLM) when it cannot work."""
    if not llm_enabled():
        raise LlmUnavailable("Language models are switched off in the settings.")
    route = get_route(alias, base_url=base_url, timeout=timeout)
    if preflight and route.is_ollama:
        health = probe(route.api_base, timeout=min(1.5, route.connect_timeout))
        if not health.reachable:
            raise LlmUnavailable(health.problem(alias) or f"No language model at {route.api_base}.")
        if not health.has_model(route.provider_model):
            raise LlmUnavailable(
                f"Model {route.provider_model!r} is not installed at {route.api_base} "
                f"(run: ollama pull {route.provider_model})."
            )
    return route


def is_timeout(exc: BaseException) -> bool:
    """True when ``exc`` or an exception it was raised from is a timeout, however the HTTP stack named it
    (LiteLLM may report an httpx read timeout as a connection error)."""
    seen: set[int] = set()
    node: BaseException | None = exc
    while node is not None and id(node) not in seen:
        seen.add(id(node))
        if isinstance(node, LlmTimedOut | TimeoutError) or "timeout" in type(node).__name__.lower():
            return True
        node = node.__cause__ or node.__context__
    return False


def guarded(route: ModelRoute, call: Callable[[], T]) -> T:
    """Run one model call through the circuit breaker (:mod:`.breaker`): refused at once while the
    endpoint is marked down; a timeout or a run of failures marks it down; any reply marks it up."""
    BREAKER.check(route.api_base, route.model)
    try:
        value = call()
    except LlmUnavailable as exc:
        BREAKER.failure(route.api_base, exc.message, timed_out=is_timeout(exc))
        raise
    except LlmOutputInvalid:
        BREAKER.success(route.api_base)  # it answered, badly: the endpoint is up
        raise
    BREAKER.success(route.api_base)
    return value


def map_error(exc: Exception, route: ModelRoute) -> Exception:
    """Translate LiteLLM/OpenAI/httpx exceptions into the app's typed errors."""
    litellm = load_litellm()
    where = f"{route.model} at {route.api_base}"
    if isinstance(exc, litellm.Timeout):
        return LlmTimedOut(f"The language model ({where}) did not answer within {route.timeout:g} s.")
    if isinstance(exc, litellm.NotFoundError):
        return LlmUnavailable(f"Model not available ({where}): {exc}")
    if isinstance(exc, litellm.APIConnectionError):
        return LlmUnavailable(f"Cannot reach the language model ({where}): {exc}")
    import httpx
    import openai

    if isinstance(exc, openai.APIError | httpx.HTTPError | OSError):
        return LlmUnavailable(f"The language model endpoint failed ({where}): {exc}")
    return exc


def _call(route: ModelRoute, messages: Sequence[Message], *, stream: bool = False, **extra: Any) -> Any:
    """One raw LiteLLM completion call with the route's options and short timeouts."""
    litellm = load_litellm()
    _register(litellm, route)
    import httpx

    kwargs: dict[str, Any] = dict(route.params)
    kwargs.update(extra)
    return litellm.completion(
        model=route.model,
        messages=list(messages),
        api_base=route.api_base,
        api_key=route.api_key,
        timeout=httpx.Timeout(route.timeout, connect=route.connect_timeout),
        stream=stream,
        num_retries=0,
        max_retries=0,
        **kwargs,
    )


def complete_text(
    alias: str,
    messages: Sequence[Message],
    *,
    on_token: Callable[[str], None] | None = None,
    timeout: float | None = None,
    base_url: str | None = None,
    should_cancel: Callable[[], bool] | None = None,
    preflight: bool = True,
    max_tokens: int | None = None,
    json_schema: type[BaseModel] | None = None,
    deadline: float | None = None,
    max_reply_chars: int | None = None,
) -> str:
    """Free-text completion for ``alias``; streams pieces to ``on_token`` when given.

    ``timeout`` (seconds) bounds each read; ``deadline`` (default: ``timeout``) bounds
    connect + the whole reply, however slowly it trickles. ``should_cancel`` is polled
    ten times a second (raises :class:`Cancelled`). A reply over ``max_reply_chars``
    (default from ``max_tokens``) raises :class:`LlmReplyTooLarge` and is not returned. ``preflight``
    checks the cached health probe first so a missing Ollama fails in milliseconds.
    ``max_tokens`` caps the reply, so a model that rambles is cut off, not waited for.
    ``json_schema`` asks the endpoint to constrain the (still streamed) reply to that
    model's JSON shape where it can; the caller still parses and validates the text.
    Raises :class:`LlmUnavailable` or :class:`LlmOutputInvalid` (empty reply).
    """
    route = resolve_route(alias, base_url, timeout, preflight)
    limits = {"max_tokens": max_tokens} if max_tokens else {}
    cap = reply_cap(max_tokens, max_reply_chars)

    def request(**kwargs: Any) -> Any:
        if json_schema is None:
            return _call(route, messages, **kwargs, **limits)
        return call_formatted(route, messages, strict_json_schema(json_schema), json_schema.__name__,
                               **kwargs, **limits)

    def work(abandoned: Callable[[], bool]) -> str:
        parts: list[str] = []
        size = 0
        if on_token is None and should_cancel is None:
            response = request()
            text = response.choices[0].message.content or ""
            if len(text) > cap:
                raise too_large(route, cap)
            return text
        stream = request(stream=True)
        try:
            for chunk in stream:
                if abandoned():
                    break
                if should_cancel is not None and should_cancel():
                    raise Cancelled("The language-model request was cancelled.")
                piece = chunk.choices[0].delta.content if chunk.choices else None
                if piece:
                    size += len(piece)
                    if size > cap:
                        raise too_large(route, cap)
                    parts.append(piece)
                    if on_token is not None:
                        on_token(piece)
        finally:
            close = getattr(stream, "close", None)
            if callable(close):
                close()
        return "".join(parts)

    load_litellm()  # a local import, seconds long the first time: not part of the model's deadline

    def call() -> str:
        try:
            return run_with_deadline(work, deadline or route.timeout, route, should_cancel)
        except (Cancelled, LlmUnavailable, LlmOutputInvalid):
            raise
        except Exception as exc:
            mapped = map_error(exc, route)
            if mapped is exc:
                raise
            raise mapped from exc

    text = guarded(route, call)
    if not text.strip():
        raise LlmOutputInvalid(f"The language model ({route.model}) returned an empty reply.")
    return text


def _response_formats(route: ModelRoute, schema: dict[str, Any], name: str) -> list[dict[str, Any]]:
    """Ways to ask for JSON, strictest first.

    OpenAI's ``json_schema``; then, for an OpenAI-compatible server, ``json_object`` with
    the schema beside it (llama.cpp turns it into a grammar); then plain ``json_object``.
    """
    formats: list[dict[str, Any]] = [
        {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": True}}]
    if not route.is_ollama:
        formats.append({"type": "json_object", "schema": schema})
    formats.append({"type": "json_object"})
    return formats


def call_formatted(route: ModelRoute, messages: Sequence[Message], schema: dict[str, Any], name: str,
                    **kwargs: Any) -> Any:
    """One call in the strictest JSON format the endpoint accepts; remember which one that was."""
    litellm = load_litellm()
    key = (route.api_base, route.model)
    formats = _response_formats(route, schema, name)
    for level in range(min(_format_level.get(key, 0), len(formats) - 1), len(formats)):
        try:
            response = _call(route, messages, response_format=formats[level], **kwargs)
        except (litellm.BadRequestError, litellm.UnprocessableEntityError, litellm.InternalServerError) as exc:
            # Ollama says 400; llama.cpp's OpenAI server answers an unknown format with a 500 or 422
            if level == len(formats) - 1 or (not isinstance(exc, litellm.BadRequestError) and not _mentions_format(exc)):
                raise
            log.info("endpoint rejected response format %s (%s); trying a looser one", formats[level]["type"], exc)
            continue
        if level != _format_level.get(key, 0):
            _format_level[key] = level  # only once a looser format worked: the stricter one was the problem
        return response
    raise AssertionError("unreachable: the last format re-raises")


def _mentions_format(exc: Exception) -> bool:
    """True when a server error is about the request's ``response_format`` (not a crash of the model)."""
    text = str(exc).lower()
    return "response_format" in text or "json_schema" in text


def forget_endpoint_quirks() -> None:
    """Forget which endpoints rejected JSON-schema output (after the user changes the endpoint)."""
    _format_level.clear()
