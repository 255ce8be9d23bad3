"""Alias configuration: repo file, user copy, settings and environment overrides."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cvrag_desktop.config import app_paths
from cvrag_desktop.errors import InvalidInput
from cvrag_desktop.llm.config import get_route, load_routes, repo_config_file, user_config_file


def test_repo_config_defines_both_aliases(monkeypatch):
    monkeypatch.delenv("CVRAG_LLM_URL")
    assert repo_config_file().exists()
    routes = load_routes()
    assert routes["cvrag-default"].model.startswith("ollama_chat/")
    assert routes["cvrag-quality"].model.startswith("ollama_chat/")
    assert routes["cvrag-default"].api_base == "http://127.0.0.1:11434"
    assert routes["cvrag-default"].params["num_ctx"] >= 8192
    assert routes["cvrag-default"].is_ollama


def test_env_url_applies_to_every_alias():
    # the test harness points CVRAG_LLM_URL at a dead loopback port
    assert {r.api_base for r in load_routes().values()} == {"http://127.0.0.1:9"}


def test_user_copy_overrides_per_alias(monkeypatch):
    monkeypatch.delenv("CVRAG_LLM_URL")
    user_config_file().parent.mkdir(parents=True, exist_ok=True)
    user_config_file().write_text(
        "model_list:\n"
        "  - model_name: cvrag-quality\n"
        "    litellm_params:\n"
        "      model: ollama_chat/llama3.1:8b\n"
        "      api_base: http://127.0.0.1:12345/\n",
        encoding="utf-8",
    )
    routes = load_routes()
    assert routes["cvrag-quality"].model == "ollama_chat/llama3.1:8b"
    assert routes["cvrag-quality"].api_base == "http://127.0.0.1:12345"
    assert routes["cvrag-quality"].params["num_ctx"] >= 8192  # merged with the repo entry
    assert routes["cvrag-default"].model == "ollama_chat/qwen2.5:3b-instruct"


def test_model_env_vars_and_bare_names(monkeypatch):
    monkeypatch.setenv("CVRAG_LLM_DEFAULT_MODEL", "smollm2:135m")
    monkeypatch.setenv("CVRAG_LLM_QUALITY_MODEL", "openai/smollm2")
    routes = load_routes()
    assert routes["cvrag-default"].model == "ollama_chat/smollm2:135m"
    assert routes["cvrag-default"].provider_model == "smollm2:135m"
    assert routes["cvrag-quality"].model == "openai/smollm2"
    assert not routes["cvrag-quality"].is_ollama


def test_settings_file_url_and_timeout(monkeypatch):
    monkeypatch.delenv("CVRAG_LLM_URL")
    paths = app_paths().ensure()
    paths.settings_file.write_text('{"llm_base_url": "http://127.0.0.1:7777", "llm_timeout_s": 9}', "utf-8")
    route = get_route("cvrag-default")
    assert route.api_base == "http://127.0.0.1:7777"
    assert route.timeout == 9


def test_broken_user_copy_is_ignored():
    user_config_file().parent.mkdir(parents=True, exist_ok=True)
    user_config_file().write_text("model_list: [unclosed", encoding="utf-8")
    assert set(load_routes()) >= {"cvrag-default", "cvrag-quality"}


def test_get_route_overrides_and_unknown_alias():
    route = get_route("cvrag-default", base_url="http://127.0.0.1:5555/", timeout=0.5)
    assert route.api_base == "http://127.0.0.1:5555"
    assert route.timeout == 0.5 and route.connect_timeout <= 0.5
    with pytest.raises(InvalidInput):
        get_route("no-such-alias")


def test_importing_the_package_does_not_import_litellm():
    code = "import sys, cvrag_desktop.llm, cvrag_desktop.ingestion.llm_fill; print('litellm' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
