"""Fixtures for the LLM gateway tests: the Ollama stub and clean per-test gateway state."""

from __future__ import annotations

import pytest

from cvrag_desktop.llm import clear_probe_cache
from cvrag_desktop.llm.gateway import forget_endpoint_quirks
from tests.support.ollama_stub import ollama_stub  # noqa: F401  (fixture)


@pytest.fixture(autouse=True)
def _fresh_llm_state():
    """Probe cache and endpoint quirks must not leak between tests (ports can be reused)."""
    clear_probe_cache()
    forget_endpoint_quirks()
    yield
    clear_probe_cache()
    forget_endpoint_quirks()
