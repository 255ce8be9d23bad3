"""Language-model access: LiteLLM → local Ollama, by alias, with a cached health probe.

Importing this package is cheap: LiteLLM itself is imported on the first real call.
Callers catch :data:`LLM_ERRORS` (``LlmUnavailable``, ``LlmOutputInvalid``) and fall back
to their deterministic path.
"""

from cvrag_desktop.llm.config import (
    ALIASES,
    DEFAULT_ALIAS,
    QUALITY_ALIAS,
    ModelRoute,
    get_route,
    llm_enabled,
    load_routes,
)
from cvrag_desktop.llm.gateway import LLM_ERRORS, complete_text
from cvrag_desktop.llm.health import LlmHealth, clear_probe_cache, probe
from cvrag_desktop.llm.structured import strict_json_schema
from cvrag_desktop.llm.structured_call import complete_structured

__all__ = [
    "ALIASES",
    "DEFAULT_ALIAS",
    "LLM_ERRORS",
    "QUALITY_ALIAS",
    "LlmHealth",
    "ModelRoute",
    "clear_probe_cache",
    "complete_structured",
    "complete_text",
    "get_route",
    "llm_enabled",
    "load_routes",
    "probe",
    "strict_json_schema",
]
