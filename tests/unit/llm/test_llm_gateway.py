"""The gateway through the real LiteLLM ollama_chat path, against the loopback Ollama stub."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel, ConfigDict, Field

from cvrag_desktop.errors import Cancelled, LlmOutputInvalid, LlmUnavailable
from cvrag_desktop.llm import complete_structured, complete_text
from tests.support.ollama_stub import StubReply

MSGS = [{"role": "user", "content": "Who is this?"}]


class Role(BaseModel):
    model_config = ConfigDict(extra="forbid")

    title: str | None = None
    years: int = 0


class Person(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    skills: list[str] = Field(default_factory=list)
    roles: list[Role] = Field(default_factory=list)


VALID = json.dumps({"name": "Ann Lee", "skills": ["Kafka"], "roles": [{"title": "Engineer", "years": 3}]})


def test_structured_happy_path_sends_schema_format(ollama_stub):
    ollama_stub.push(VALID)
    person = complete_structured("cvrag-default", MSGS, Person, base_url=ollama_stub.url)
    assert person == Person(name="Ann Lee", skills=["Kafka"], roles=[Role(title="Engineer", years=3)])
    (request,) = ollama_stub.chat_requests
    assert request["model"] == "qwen2.5:3b-instruct"
    assert request["stream"] is False
    fmt = request["format"]
    assert fmt["type"] == "object" and fmt["additionalProperties"] is False
    assert set(fmt["required"]) == {"name", "skills", "roles"}
    assert "$defs" not in json.dumps(fmt)  # inlined for Ollama's grammar
    assert request["options"]["num_ctx"] >= 8192
    assert request["messages"][0]["role"] == "system" and "JSON schema" in request["messages"][0]["content"]
    assert request["messages"][-1]["content"] == "Who is this?"
    # LiteLLM must not ask the endpoint for model info (it would use a 6000 s timeout)
    assert [r.path for r in ollama_stub.requests] == ["/api/tags", "/api/chat"]


def test_fences_prose_and_nulls_are_tolerated(ollama_stub):
    ollama_stub.push('Sure! Here it is:\n```json\n{"name": "Ann", "skills": null, "roles": null}\n```\nBye')
    person = complete_structured("cvrag-default", MSGS, Person, base_url=ollama_stub.url)
    assert person == Person(name="Ann")


def test_schema_rejected_falls_back_to_json_object(ollama_stub):
    ollama_stub.mode = "reject_schema"
    ollama_stub.push(VALID, VALID)
    assert complete_structured("cvrag-default", MSGS, Person, base_url=ollama_stub.url).name == "Ann Lee"
    first, second = ollama_stub.chat_requests
    assert isinstance(first["format"], dict)
    assert second["format"] == "json"
    # remembered: the next call goes straight to JSON mode
    assert complete_structured("cvrag-default", MSGS, Person, base_url=ollama_stub.url).name == "Ann Lee"
    assert ollama_stub.chat_requests[2]["format"] == "json"


def test_garbage_then_valid_is_repaired_once(ollama_stub):
    ollama_stub.push("I think the name is Ann.", VALID)
    person = complete_structured("cvrag-default", MSGS, Person, base_url=ollama_stub.url)
    assert person.name == "Ann Lee"
    _, second = ollama_stub.chat_requests
    assert second["messages"][-2]["role"] == "assistant"
    assert second["messages"][-2]["content"] == "I think the name is Ann."
    assert "rejected" in second["messages"][-1]["content"]


def test_validation_error_is_sent_back(ollama_stub):
    ollama_stub.push('{"name": "Ann", "age": 40}', '{"name": "Ann"}')
    assert complete_structured("cvrag-default", MSGS, Person, base_url=ollama_stub.url).name == "Ann"
    repair = ollama_stub.chat_requests[1]["messages"][-1]["content"]
    assert "age" in repair and "Extra inputs are not permitted" in repair


def test_garbage_twice_raises_output_invalid(ollama_stub):
    ollama_stub.push("nope", '{"skills": "not a list"}', VALID)
    with pytest.raises(LlmOutputInvalid):
        complete_structured("cvrag-default", MSGS, Person, base_url=ollama_stub.url)
    assert len(ollama_stub.chat_requests) == 2  # exactly one repair retry


def test_endpoint_down_raises_unavailable_without_litellm_import_cost():
    with pytest.raises(LlmUnavailable):
        complete_structured("cvrag-default", MSGS, Person, timeout=1)  # CVRAG_LLM_URL: dead port
    with pytest.raises(LlmUnavailable):
        complete_text("cvrag-default", MSGS, timeout=1)


def test_connection_refused_through_litellm_maps_to_unavailable():
    with pytest.raises(LlmUnavailable, match="reach"):
        complete_text("cvrag-default", MSGS, base_url="http://127.0.0.1:9", timeout=1, preflight=False)


def test_hanging_endpoint_times_out(ollama_stub):
    ollama_stub.push(StubReply(content="late", delay=30))
    with pytest.raises(LlmUnavailable, match="within"):
        complete_text("cvrag-default", MSGS, base_url=ollama_stub.url, timeout=0.5)
    ollama_stub.mode = "hang"  # the probe hangs too: preflight gives up at the probe timeout
    with pytest.raises(LlmUnavailable):
        complete_structured("cvrag-default", MSGS, Person, base_url=ollama_stub.url, timeout=0.5)


def test_http_500_and_garbage_body_are_unavailable(ollama_stub):
    ollama_stub.push(StubReply(status=500, body='{"error": "model runner has unexpectedly stopped"}'))
    with pytest.raises(LlmUnavailable):
        complete_text("cvrag-default", MSGS, base_url=ollama_stub.url, timeout=2)
    ollama_stub.push(StubReply(body="<html>proxy error</html>"))
    with pytest.raises(LlmUnavailable):
        complete_structured("cvrag-default", MSGS, Person, base_url=ollama_stub.url, timeout=2)


def test_missing_model_is_unavailable_with_pull_hint(ollama_stub):
    ollama_stub.models = ["qwen2.5:3b-instruct"]
    with pytest.raises(LlmUnavailable, match=r"ollama pull qwen2\.5:7b-instruct"):
        complete_text("cvrag-quality", MSGS, base_url=ollama_stub.url)
    with pytest.raises(LlmUnavailable):  # same when the probe is skipped: Ollama's 404
        complete_text("cvrag-quality", MSGS, base_url=ollama_stub.url, timeout=2, preflight=False)


def test_streaming_tokens_reach_on_token(ollama_stub):
    ollama_stub.push("Ann Lee has five years of Kafka.")
    tokens: list[str] = []
    text = complete_text("cvrag-quality", MSGS, on_token=tokens.append, base_url=ollama_stub.url)
    assert text == "Ann Lee has five years of Kafka."
    assert len(tokens) == 7 and "".join(tokens) == text
    (request,) = ollama_stub.chat_requests
    assert request["stream"] is True and request["model"] == "qwen2.5:7b-instruct"


def test_non_streaming_text(ollama_stub):
    ollama_stub.push("Hello.")
    assert complete_text("cvrag-default", MSGS, base_url=ollama_stub.url) == "Hello."
    assert ollama_stub.chat_requests[0]["stream"] is False


def test_cancel_during_stream(ollama_stub):
    ollama_stub.push("one two three four five")
    seen: list[str] = []
    with pytest.raises(Cancelled):
        complete_text(
            "cvrag-default",
            MSGS,
            base_url=ollama_stub.url,
            on_token=seen.append,
            should_cancel=lambda: bool(seen),
        )
    assert seen == ["one "]


def test_empty_reply_is_invalid(ollama_stub):
    ollama_stub.push("   ")
    with pytest.raises(LlmOutputInvalid):
        complete_text("cvrag-default", MSGS, base_url=ollama_stub.url)


def test_disabled_by_user_never_calls(ollama_stub, monkeypatch):
    monkeypatch.setenv("CVRAG_NO_LLM", "1")
    with pytest.raises(LlmUnavailable, match="switched off"):
        complete_text("cvrag-default", MSGS, base_url=ollama_stub.url)
    assert ollama_stub.requests == []


def test_openai_compatible_server_without_a_key(ollama_stub, monkeypatch):
    """A local llama.cpp-style server (``openai/...`` route) works with no API key configured."""
    ollama_stub.openai_only = True
    monkeypatch.setenv("CVRAG_LLM_DEFAULT_MODEL", "openai/qwen2.5:3b-instruct")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    ollama_stub.push(VALID)
    person = complete_structured("cvrag-default", MSGS, Person, base_url=ollama_stub.url + "/v1")
    assert person.name == "Ann Lee"
    (request,) = ollama_stub.chat_requests
    assert request["model"] == "qwen2.5:3b-instruct"
    sent = next(r for r in ollama_stub.requests if r.path == "/v1/chat/completions")
    assert {k.lower(): v for k, v in sent.headers.items()}["authorization"].startswith("Bearer ")


def test_openai_server_rejecting_json_schema_with_a_500_falls_back(ollama_stub, monkeypatch):
    ollama_stub.openai_only = True
    ollama_stub.mode = "reject_schema"
    monkeypatch.setenv("CVRAG_LLM_DEFAULT_MODEL", "openai/qwen2.5:3b-instruct")
    ollama_stub.push(VALID)
    person = complete_structured("cvrag-default", MSGS, Person, base_url=ollama_stub.url + "/v1")
    assert person.name == "Ann Lee"
    formats = [(r.body or {}).get("response_format", {}) for r in ollama_stub.requests
               if r.path == "/v1/chat/completions"]
    assert [f["type"] for f in formats] == ["json_schema", "json_object"]
    assert formats[1]["schema"]["required"]  # the schema rides along for a llama.cpp grammar
    ollama_stub.push(VALID)
    complete_structured("cvrag-default", MSGS, Person, base_url=ollama_stub.url + "/v1")
    assert ollama_stub.requests[-1].body["response_format"]["type"] == "json_object"  # remembered


def test_reply_cap_reaches_the_endpoint(ollama_stub):
    ollama_stub.push("a short reply", VALID)
    complete_text("cvrag-quality", MSGS, base_url=ollama_stub.url, max_tokens=77)
    complete_structured("cvrag-default", MSGS, Person, base_url=ollama_stub.url, max_tokens=55)
    caps = [r["options"].get("num_predict") for r in ollama_stub.chat_requests]
    assert caps == [77, 55]
