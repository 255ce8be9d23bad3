"""Model aliases → LiteLLM routes (model string, endpoint, timeouts, sampling options).

The application never names a model directly: it asks for an alias (``cvrag-default``
for extraction, rewriting and routing; ``cvrag-quality`` for answers). Aliases are read
from ``litellm_config.yaml`` in LiteLLM's proxy ``model_list`` format, layered:

1. the repository / bundled ``litellm_config.yaml``;
2. a user copy in the config dir (``app_paths().config_dir / "litellm_config.yaml"``),
   merged per alias (keys given there win);
3. user settings / environment: ``llm_base_url`` from settings.json or ``CVRAG_LLM_URL``
   (endpoint for every alias), ``llm_timeout_s`` (request timeout),
   ``CVRAG_LLM_DEFAULT_MODEL`` and ``CVRAG_LLM_QUALITY_MODEL`` (model of each alias),
   ``CVRAG_LLM_API_KEY`` (only for an OpenAI-compatible server that checks one).

Loading is cheap (one small YAML file) and done on every call, so a changed setting or
a test's environment takes effect immediately.
"""

from __future__ import annotations

import copy
import logging
import os
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field

import cvrag_desktop
from cvrag_desktop.config import app_paths, load_settings
from cvrag_desktop.errors import InvalidInput

log = logging.getLogger(__name__)

DEFAULT_ALIAS = "cvrag-default"
QUALITY_ALIAS = "cvrag-quality"
ALIASES: tuple[str, ...] = (DEFAULT_ALIAS, QUALITY_ALIAS)
CONFIG_FILENAME = "litellm_config.yaml"
DEFAULT_BASE_URL = "http://127.0.0.1:11434"
MODEL_ENV = {DEFAULT_ALIAS: "CVRAG_LLM_DEFAULT_MODEL", QUALITY_ALIAS: "CVRAG_LLM_QUALITY_MODEL"}
OLLAMA_PREFIXES = ("ollama_chat/", "ollama/")
# Provider prefixes LiteLLM understands that are plausible for a local endpoint.
_KNOWN_PREFIXES = (*OLLAMA_PREFIXES, "openai/", "hosted_vllm/", "lm_studio/", "llamafile/")
# Keys of ``litellm_params`` that are ours or handled explicitly, not sampling options.
_RESERVED = {"model", "api_base", "timeout", "connect_timeout", "stream_timeout", "api_key"}

# Used when no config file can be read at all (e.g. a broken bundle): the app still runs.
_BUILTIN: dict[str, dict[str, Any]] = {
    DEFAULT_ALIAS: {"model": "ollama_chat/qwen2.5:3b-instruct", "timeout": 120, "temperature": 0},
    QUALITY_ALIAS: {"model": "ollama_chat/qwen2.5:7b-instruct", "timeout": 180, "temperature": 0.2},
}


class ModelRoute(BaseModel):
    """Everything needed to call one alias through LiteLLM."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    alias: str
    model: str = Field(description="LiteLLM model string, e.g. 'ollama_chat/qwen2.5:3b-instruct'")
    api_base: str = DEFAULT_BASE_URL
    timeout: float = Field(
        default=120.0, gt=0, description="seconds for a whole request / between stream reads"
    )
    connect_timeout: float = Field(default=3.0, gt=0, description="seconds to establish the connection")
    api_key: str | None = None
    params: dict[str, Any] = Field(default_factory=dict, description="sampling/options passed to LiteLLM")

    @property
    def is_ollama(self) -> bool:
        """True when the route talks Ollama's native API (so ``/api/tags`` can be probed)."""
        return self.model.startswith(OLLAMA_PREFIXES)

    @property
    def provider_model(self) -> str:
        """The model name as the endpoint knows it (the LiteLLM provider prefix removed)."""
        for prefix in _KNOWN_PREFIXES:
            if self.model.startswith(prefix):
                return self.model[len(prefix) :]
        return self.model


def repo_config_file() -> Path:
    """The ``litellm_config.yaml`` shipped next to the package (repository root)."""
    return Path(cvrag_desktop.__file__).resolve().parent.parent / CONFIG_FILENAME


def user_config_file() -> Path:
    """Where a user's override copy lives (may not exist)."""
    return app_paths().config_dir / CONFIG_FILENAME


def litellm_model_string(name: str) -> str:
    """Turn a bare Ollama model name (``qwen2.5:3b``) into a LiteLLM model string."""
    name = name.strip()
    if name.startswith(_KNOWN_PREFIXES):
        return name
    return f"ollama_chat/{name}"


def _read_model_list(path: Path) -> dict[str, dict[str, Any]]:
    """Parse a LiteLLM-style ``model_list`` into ``{alias: litellm_params}``; {} if unusable."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except FileNotFoundError:
        return {}
    except (OSError, yaml.YAMLError) as exc:
        log.warning("ignoring unreadable LLM config %s: %s", path, exc)
        return {}
    out: dict[str, dict[str, Any]] = {}
    entries = data.get("model_list") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        log.warning("ignoring LLM config %s: no model_list", path)
        return {}
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("model_name"), str):
            continue
        params = entry.get("litellm_params")
        if isinstance(params, dict):
            out[entry["model_name"]] = dict(params)
    return out


def load_raw_aliases() -> dict[str, dict[str, Any]]:
    """Merge built-in defaults, the repo file and the user copy into ``{alias: litellm_params}``."""
    merged = copy.deepcopy(_BUILTIN)
    for path in (repo_config_file(), user_config_file()):
        for alias, params in _read_model_list(path).items():
            merged.setdefault(alias, {}).update(params)
    return merged


LOCAL_API_KEY = "local-no-key"
"""Sent to an OpenAI-compatible server when none is configured: a local server without auth
(llama.cpp's) ignores it, but LiteLLM's OpenAI client refuses to send a request without one."""


def _api_key(raw: dict[str, Any], model: str) -> str | None:
    """The alias's key: ``CVRAG_LLM_API_KEY``, else the config's, else a placeholder for non-Ollama servers."""
    key = os.environ.get("CVRAG_LLM_API_KEY", "").strip() or raw.get("api_key")
    if key:
        return str(key)
    return None if litellm_model_string(model).startswith(OLLAMA_PREFIXES) else LOCAL_API_KEY


def load_routes() -> dict[str, ModelRoute]:
    """Every configured alias with settings and environment overrides applied."""
    settings = load_settings()
    explicit = settings.model_fields_set
    routes: dict[str, ModelRoute] = {}
    for alias, raw in load_raw_aliases().items():
        params = {k: v for k, v in raw.items() if k not in _RESERVED}
        model = os.environ.get(MODEL_ENV.get(alias, ""), "").strip() or str(raw.get("model", ""))
        if not model:
            log.warning("LLM alias %s has no model; skipped", alias)
            continue
        api_base = settings.llm_base_url if "llm_base_url" in explicit else raw.get("api_base")
        timeout = settings.llm_timeout_s if "llm_timeout_s" in explicit else raw.get("timeout")
        try:
            routes[alias] = ModelRoute(
                alias=alias,
                model=litellm_model_string(model),
                api_base=str(api_base or DEFAULT_BASE_URL).rstrip("/"),
                timeout=float(timeout or 120.0),
                connect_timeout=float(raw.get("connect_timeout") or 3.0),
                api_key=_api_key(raw, model),
                params=params,
            )
        except (ValueError, TypeError) as exc:
            log.warning("LLM alias %s is misconfigured (%s); skipped", alias, exc)
    return routes


def get_route(alias: str, *, base_url: str | None = None, timeout: float | None = None) -> ModelRoute:
    """The route for ``alias``, optionally pointed at another endpoint or given another timeout.

    Raises :class:`InvalidInput` for an unknown alias.
    """
    routes = load_routes()
    if alias not in routes:
        raise InvalidInput(f"unknown LLM alias {alias!r}; configured: {', '.join(sorted(routes))}")
    route = routes[alias]
    update: dict[str, Any] = {}
    if base_url:
        update["api_base"] = base_url.rstrip("/")
    if timeout is not None:
        update["timeout"] = float(timeout)
        update["connect_timeout"] = min(route.connect_timeout, float(timeout))
    return route.model_copy(update=update) if update else route


def llm_enabled() -> bool:
    """False when the user switched language models off (settings or ``CVRAG_NO_LLM``)."""
    return load_settings().llm_enabled


def default_base_url() -> str:
    """The endpoint of the default alias (what the health probe checks by default)."""
    routes = load_routes()
    route = routes.get(DEFAULT_ALIAS) or next(iter(routes.values()), None)
    return route.api_base if route else DEFAULT_BASE_URL
