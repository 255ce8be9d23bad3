"""The /api/tags health probe: up, down, model missing, garbage, caching."""

from __future__ import annotations

from cvrag_desktop.llm import clear_probe_cache, probe


def test_probe_up_lists_models_and_aliases(ollama_stub):
    health = probe(ollama_stub.url)
    assert health.reachable and health.error is None
    assert "qwen2.5:3b-instruct" in health.models
    assert health.aliases == {"cvrag-default": True, "cvrag-quality": True}
    assert health.usable("cvrag-default")
    assert health.problem("cvrag-default") is None


def test_probe_down_is_reported_not_raised():
    health = probe("http://127.0.0.1:9", timeout=0.5)
    assert not health.reachable
    assert health.error
    assert not health.usable("cvrag-default")
    assert "deterministic" in (health.problem("cvrag-default") or "")


def test_probe_default_url_comes_from_config():
    health = probe(timeout=0.5)  # CVRAG_LLM_URL points at a dead port in tests
    assert health.base_url == "http://127.0.0.1:9"
    assert not health.reachable


def test_probe_reports_missing_model(ollama_stub):
    ollama_stub.models = ["qwen2.5:3b-instruct", "llama3:latest"]
    health = probe(ollama_stub.url)
    assert health.reachable
    assert health.aliases == {"cvrag-default": True, "cvrag-quality": False}
    assert "ollama pull qwen2.5:7b-instruct" in (health.problem("cvrag-quality") or "")
    assert health.has_model("llama3")  # untagged means :latest


def test_probe_garbage_and_http_error_mean_unreachable(ollama_stub):
    ollama_stub.mode = "garbage"
    assert not probe(ollama_stub.url).reachable
    clear_probe_cache()
    ollama_stub.mode = "error500"
    health = probe(ollama_stub.url)
    assert not health.reachable and "500" in (health.error or "")


def test_probe_hang_is_bounded_by_timeout(ollama_stub):
    ollama_stub.mode = "hang"
    health = probe(ollama_stub.url, timeout=0.3)
    assert not health.reachable and "timed out" in (health.error or "")


def test_probe_is_cached(ollama_stub):
    for _ in range(20):
        assert probe(ollama_stub.url).reachable
    tags = [r for r in ollama_stub.requests if r.path == "/api/tags"]
    assert len(tags) == 1
    clear_probe_cache()
    probe(ollama_stub.url)
    assert len([r for r in ollama_stub.requests if r.path == "/api/tags"]) == 2
    probe(ollama_stub.url, max_age=0)
    assert len([r for r in ollama_stub.requests if r.path == "/api/tags"]) == 3


def test_probe_recognises_openai_compatible_server(ollama_stub):
    ollama_stub.openai_only = True
    health = probe(ollama_stub.url + "/v1")
    assert health.reachable and "qwen2.5:3b-instruct" in health.models
