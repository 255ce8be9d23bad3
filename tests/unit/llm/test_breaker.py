"""The circuit breaker: a timeout or a run of failures marks the model down; a batch holds it down."""

from __future__ import annotations

import pytest

from cvrag_desktop.errors import LlmUnavailable
from cvrag_desktop.llm.breaker import BREAKER, CircuitBreaker
from tests.unit.llm.test_llm_gateway import MSGS

URL = "http://127.0.0.1:11434"


class Clock:
    """A hand-moved clock (no sleeps)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def breaker(clock):
    return CircuitBreaker(clock=clock, config=lambda: (3, 60.0))


def test_a_timeout_marks_the_endpoint_down_at_once_until_the_cool_down_ends(breaker, clock):
    breaker.check(URL)
    breaker.failure(URL, "did not answer within 5 s", timed_out=True)
    with pytest.raises(LlmUnavailable, match="marked down"):
        breaker.check(URL)
    assert "did not answer within 5 s" in breaker.status(URL)
    clock.now += 59
    assert breaker.down(URL)
    clock.now += 2
    assert not breaker.down(URL)
    breaker.check(URL)  # cooled down: the next call is let through
    breaker.success(URL)
    assert breaker.status(URL) is None


def test_failures_trip_only_when_they_run_in_a_row(breaker):
    for _ in range(2):
        breaker.failure(URL, "HTTP 500", timed_out=False)
    breaker.check(URL)
    breaker.success(URL)  # a reply in between starts the count again
    for _ in range(2):
        breaker.failure(URL, "HTTP 500", timed_out=False)
    assert not breaker.down(URL)
    breaker.failure(URL, "HTTP 500", timed_out=False)
    assert breaker.down(URL)


def test_a_batch_keeps_the_endpoint_down_past_the_cool_down(breaker, clock):
    with breaker.batch():
        breaker.failure(URL, "timeout", timed_out=True)
        clock.now += 3600
        assert breaker.down(URL)
        for _ in range(5):
            with pytest.raises(LlmUnavailable):
                breaker.check(URL)
        assert "5 request(s)" in breaker.status(URL)
    assert not breaker.down(URL)


def test_endpoints_are_independent_and_reset_forgets(breaker):
    breaker.failure(URL, "timeout", timed_out=True)
    breaker.check("http://127.0.0.1:8081")
    breaker.reset()
    breaker.check(URL)


def test_the_gateway_waits_for_one_timeout_then_refuses_without_calling(ollama_stub):
    from cvrag_desktop.llm import complete_text
    from cvrag_desktop.llm.gateway import load_litellm

    load_litellm()
    ollama_stub.push("warm")  # LiteLLM's first call loads its provider code: on a busy machine that alone
    complete_text("cvrag-quality", MSGS, base_url=ollama_stub.url)  # took the 1 s and no request was sent
    ollama_stub.requests.clear()
    ollama_stub.mode = "never_answer"
    with pytest.raises(LlmUnavailable, match="deadline"):
        complete_text("cvrag-quality", MSGS, base_url=ollama_stub.url, timeout=1.0)
    assert len(ollama_stub.chat_requests) == 1
    for _ in range(3):
        with pytest.raises(LlmUnavailable, match="marked down"):
            complete_text("cvrag-quality", MSGS, base_url=ollama_stub.url, timeout=1.0)
    assert len(ollama_stub.chat_requests) == 1  # refused in the app, the hung server was not asked again
    ollama_stub.mode = "normal"
    ollama_stub.push("back")
    BREAKER.reset()  # what "Test connection" / a settings change does
    assert complete_text("cvrag-quality", MSGS, base_url=ollama_stub.url, timeout=5.0) == "back"


def test_an_invalid_reply_is_not_an_outage(ollama_stub):
    from cvrag_desktop.errors import LlmOutputInvalid
    from cvrag_desktop.llm.structured_call import complete_structured
    from tests.unit.llm.test_llm_gateway import Person

    for _ in range(3):
        ollama_stub.push("not json", "still not json")
        with pytest.raises(LlmOutputInvalid):
            complete_structured("cvrag-default", MSGS, Person, base_url=ollama_stub.url, timeout=5.0)
    assert not BREAKER.down(ollama_stub.url)
