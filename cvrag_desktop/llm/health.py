"""Is a language model there? A quick, cached probe of the local endpoint.

``GET /api/tags`` lists the models Ollama has installed; the probe reports whether the
endpoint answered and which configured aliases resolve to an installed model. It uses
the standard library only (no LiteLLM import, which takes seconds), bypasses HTTP
proxies (the endpoint is local), and caches its answer briefly so a batch of a hundred
files or a burst of chat requests costs one probe, not a hundred. An OpenAI-compatible
server (e.g. llama-cpp-python) is recognised through ``GET /v1/models`` as a fallback.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from cvrag_desktop.llm.breaker import BREAKER
from cvrag_desktop.llm.config import default_base_url, load_routes

DEFAULT_PROBE_TIMEOUT = 1.5
DEFAULT_MAX_AGE = 10.0

_cache: dict[str, tuple[float, list[str] | None, str | None]] = {}
_cache_lock = threading.Lock()
_probe_locks: dict[str, threading.Lock] = {}


class LlmHealth(BaseModel):
    """The result of one probe: reachability, installed models, and which aliases can run."""

    model_config = ConfigDict(extra="forbid")

    base_url: str
    reachable: bool
    models: list[str] = Field(default_factory=list)
    aliases: dict[str, bool] = Field(
        default_factory=dict, description="alias -> its configured model is installed at this endpoint"
    )
    alias_models: dict[str, str] = Field(default_factory=dict, description="alias -> configured model name")
    error: str | None = None
    checked_at: float = Field(default_factory=time.time)

    def usable(self, alias: str) -> bool:
        """True when ``alias`` can be called: endpoint up and its model installed."""
        return self.reachable and self.aliases.get(alias, False)

    def has_model(self, name: str) -> bool:
        """True when a model called ``name`` (``:latest`` implied when untagged) is installed."""
        return self.reachable and _model_matches(name, set(self.models))

    def problem(self, alias: str) -> str | None:
        """A sentence for the user explaining why ``alias`` cannot run, or None if it can."""
        if not self.reachable:
            return f"No language model at {self.base_url} ({self.error or 'no answer'}); using deterministic mode."
        if alias not in self.aliases:
            return f"LLM alias {alias!r} is not configured."
        if not self.aliases[alias]:
            model = self.alias_models.get(alias, "?")
            return f"Model {model!r} is not installed at {self.base_url} (run: ollama pull {model})."
        return None


def _model_matches(configured: str, installed: set[str]) -> bool:
    """Ollama names default to the ``:latest`` tag; compare with that in mind."""
    name = configured.strip()
    candidates = {name, f"{name}:latest"} if ":" not in name else {name}
    if name.endswith(":latest"):
        candidates.add(name[: -len(":latest")])
    return bool(candidates & installed)


def _get_json(url: str, timeout: float) -> Any:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # local endpoint: never a proxy
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    with opener.open(request, timeout=timeout) as response:
        return json.loads(response.read(2_000_000).decode("utf-8"))


def _list_models(base_url: str, timeout: float) -> list[str]:
    """Installed model names via Ollama's ``/api/tags`` (or OpenAI-style ``/v1/models``)."""
    try:
        data = _get_json(f"{base_url}/api/tags", timeout)
        entries = data.get("models") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            raise ValueError("unexpected /api/tags payload (not an Ollama server?)")
        return [str(e.get("name") or e.get("model")) for e in entries if isinstance(e, dict)]
    except urllib.error.HTTPError as exc:
        if exc.code != 404:
            raise
    root = base_url[:-3] if base_url.endswith("/v1") else base_url
    data = _get_json(f"{root}/v1/models", timeout)
    entries = data.get("data") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise ValueError("unexpected /v1/models payload")
    return [str(e.get("id")) for e in entries if isinstance(e, dict)]


def _describe(exc: BaseException) -> str:
    if isinstance(exc, urllib.error.HTTPError):
        return f"HTTP {exc.code} {exc.reason}"
    if isinstance(exc, urllib.error.URLError):
        return str(exc.reason)
    if isinstance(exc, TimeoutError):
        return "timed out"
    return f"{type(exc).__name__}: {exc}"


def _health(base_url: str, models: list[str] | None, error: str | None) -> LlmHealth:
    """Combine an endpoint's model list with the current alias configuration."""
    alias_models = {a: r.provider_model for a, r in load_routes().items()}
    if models is None:
        return LlmHealth(base_url=base_url, reachable=False, alias_models=alias_models, error=error)
    installed = set(models)
    aliases = {a: _model_matches(m, installed) for a, m in alias_models.items()}
    return LlmHealth(
        base_url=base_url, reachable=True, models=models, aliases=aliases, alias_models=alias_models
    )


def _ask(base_url: str, timeout: float) -> tuple[list[str] | None, str | None]:
    try:
        return _list_models(base_url, timeout), None
    except Exception as exc:  # any failure means "not usable": report it, never raise
        return None, _describe(exc)


def probe_uncached(base_url: str, timeout: float = DEFAULT_PROBE_TIMEOUT) -> LlmHealth:
    """Ask the endpoint now, ignoring the cache (used by the settings dialog's "Test" button)."""
    base_url = base_url.rstrip("/")
    models, error = _ask(base_url, timeout)
    with _cache_lock:
        _cache[base_url] = (time.monotonic(), models, error)
    return _health(base_url, models, error)


def probe(
    base_url: str | None = None,
    timeout: float = DEFAULT_PROBE_TIMEOUT,
    *,
    max_age: float = DEFAULT_MAX_AGE,
) -> LlmHealth:
    """Health of ``base_url`` (default: the configured endpoint), cached for ``max_age`` seconds.

    Concurrent callers for the same endpoint wait for one probe instead of each probing.
    Only the endpoint's answer is cached; the alias configuration is re-read every call.
    Never raises: an unreachable endpoint is reported in the result.
    """
    url = (base_url or default_base_url()).rstrip("/")
    with _cache_lock:
        lock = _probe_locks.setdefault(url, threading.Lock())
    with lock:
        with _cache_lock:
            hit = _cache.get(url)
        if hit is not None and time.monotonic() - hit[0] <= max_age:
            return _health(url, hit[1], hit[2])
        return probe_uncached(url, timeout)


def clear_probe_cache() -> None:
    """Forget cached probes and the circuit breaker's verdicts (after the user changes the endpoint or starts Ollama)."""
    with _cache_lock:
        _cache.clear()
    BREAKER.reset()
