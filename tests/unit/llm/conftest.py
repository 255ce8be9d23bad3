"""Fixtures for the LLM gateway tests: the Ollama stub (clean gateway state is test-wide, in tests/conftest.py)."""

from __future__ import annotations

from tests.support.ollama_stub import ollama_stub  # noqa: F401  (fixture)
