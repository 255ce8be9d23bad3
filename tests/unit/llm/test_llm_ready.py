"""A hung model during an import: the breaker opens after the first timeout and later CVs make no model call.

Counted, not timed: the requests that reached the stub's hung chat endpoint. The deadlines are
shortened through the module's constants so no test waits long (it never sleeps either).
"""

from __future__ import annotations

from cvrag_desktop.domain import NormalizedCV
from cvrag_desktop.errors import LlmTimedOut
from cvrag_desktop.ingestion.llm_fill import fill_gaps
from cvrag_desktop.llm import get_route
from cvrag_desktop.llm import ready as ready_module
from cvrag_desktop.llm.breaker import BREAKER
from cvrag_desktop.llm.ready import IMPORT_TIMEOUT_S, ensure_ready, import_timeout, model_loaded

TEXT = "Quillon Verbrugge\nBackend Engineer\nSKILLS\nPython, Kafka\n"


def test_an_import_call_waits_at_most_fifteen_seconds():
    route = get_route("cvrag-default")
    assert route.timeout == 120  # the shipped route (litellm_config.yaml)
    assert import_timeout(route) == IMPORT_TIMEOUT_S == 15
    assert import_timeout(get_route("cvrag-default", timeout=4)) == 4


def test_the_breaker_opens_after_the_first_timeout_and_later_cvs_make_no_model_call(ollama_stub, monkeypatch):
    monkeypatch.setattr(ready_module, "IMPORT_TIMEOUT_S", 0.5)  # the per-call cap of an import, shortened
    ollama_stub.mode = "never_answer"
    notes = []
    for _ in range(5):  # outside a batch: no load request, the CV's own call times out
        merged, note = fill_gaps(NormalizedCV(), TEXT, base_url=ollama_stub.url)
        assert merged == NormalizedCV()
        notes.append(note[-1])
    assert len(ollama_stub.chat_requests) == 1  # one call waited for its timeout; four were refused at once
    assert "0.5 s" in notes[0] and all("marked down" in n for n in notes[1:])
    assert BREAKER.down(ollama_stub.url)


def test_in_an_import_the_load_request_is_the_only_call_to_a_hung_model(ollama_stub, monkeypatch):
    monkeypatch.setattr(ready_module, "READY_LOADED_S", 0.3)
    ollama_stub.mode = "never_answer"
    ollama_stub.loaded = list(ollama_stub.models)  # Ollama says the model is in memory: the short wait applies
    with BREAKER.batch():
        notes = [fill_gaps(NormalizedCV(), TEXT, base_url=ollama_stub.url)[1][-1] for _ in range(20)]
    (request,) = ollama_stub.chat_requests
    assert request["messages"] == []  # Ollama's load request, not a CV
    assert "load request within 0.3 s" in notes[0]
    assert all("marked down" in n for n in notes[1:])
    assert "19 request(s)" in (BREAKER.status(ollama_stub.url) or "")


def test_a_live_model_is_checked_once_per_import_and_not_outside_one(ollama_stub):
    route = get_route("cvrag-default", base_url=ollama_stub.url)
    ensure_ready(route)  # outside an import: nothing sent
    assert ollama_stub.chat_requests == []
    with BREAKER.batch():
        ensure_ready(route)
        ensure_ready(route)
    assert [r["messages"] for r in ollama_stub.chat_requests] == [[]]
    with BREAKER.batch():  # the next import checks again
        ensure_ready(route)
    assert len(ollama_stub.chat_requests) == 2
    assert not BREAKER.down(ollama_stub.url)


def test_a_model_that_must_still_be_loaded_gets_the_import_timeout(ollama_stub, monkeypatch):
    seen = []

    def fake_run(work, deadline, route, should_cancel=None):
        seen.append(deadline)
        raise LlmTimedOut("stand-in")

    monkeypatch.setattr(ready_module, "run_with_deadline", fake_run)
    monkeypatch.setattr(ready_module, "model_loaded", lambda route: False)
    route = get_route("cvrag-default", base_url=ollama_stub.url)
    with BREAKER.batch():
        try:
            ensure_ready(route)
        except LlmTimedOut as exc:
            assert "load request within 15 s" in exc.message
    assert seen == [15.0] and BREAKER.down(ollama_stub.url)


def test_model_loaded_reads_api_ps_and_says_none_when_it_cannot_tell(ollama_stub):
    route = get_route("cvrag-default", base_url=ollama_stub.url)
    assert model_loaded(route) is None  # the stub has no /api/ps (an old Ollama): it cannot tell


def test_a_timeout_is_recognised_through_the_exceptions_it_was_raised_from():
    from cvrag_desktop.errors import LlmUnavailable
    from cvrag_desktop.llm.gateway import is_timeout

    class ReadTimeout(Exception):
        """Stands in for httpx's."""

    try:
        try:
            raise ReadTimeout("read timed out")
        except ReadTimeout as inner:
            raise LlmUnavailable("Cannot reach the language model") from inner
    except LlmUnavailable as exc:
        assert is_timeout(exc)
    assert not is_timeout(LlmUnavailable("connection refused"))
    assert is_timeout(LlmTimedOut("deadline"))


def test_a_model_whose_state_cannot_be_told_gets_the_import_timeout_not_the_short_wait(ollama_stub, monkeypatch):
    monkeypatch.setattr(ready_module, "READY_LOADED_S", 0.1)
    monkeypatch.setattr(ready_module, "IMPORT_TIMEOUT_S", 0.6)
    ollama_stub.mode = "never_answer"  # and no /api/ps (an old Ollama, or one too busy to say)
    with BREAKER.batch():
        note = fill_gaps(NormalizedCV(), TEXT, base_url=ollama_stub.url)[1][-1]
    assert "load request within 0.6 s" in note
