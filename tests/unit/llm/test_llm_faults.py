"""A misbehaving model server never hangs the app: total deadline, reply-size cap, cancellation."""

from __future__ import annotations

import time

import pytest

from cvrag_desktop.errors import Cancelled, LlmReplyTooLarge, LlmUnavailable
from cvrag_desktop.llm import complete_text
from cvrag_desktop.llm.structured_call import complete_structured
from tests.unit.llm.test_llm_gateway import MSGS, Person

DEADLINE = 2.0


@pytest.fixture(autouse=True)
def _litellm_loaded():
    """Import LiteLLM before the clocks start (seconds the first time; not the model's time)."""
    from cvrag_desktop.llm.gateway import load_litellm

    load_litellm()


@pytest.mark.parametrize("streamed", [False, True])
def test_trickling_server_hits_the_total_deadline(ollama_stub, streamed):
    ollama_stub.mode = "trickle"
    ollama_stub.trickle_interval = 0.5  # each byte arrives well within the per-read timeout
    t0 = time.monotonic()
    with pytest.raises(LlmUnavailable) as err:
        complete_text("cvrag-quality", MSGS, base_url=ollama_stub.url, timeout=DEADLINE,
                      on_token=(lambda _p: None) if streamed else None)
    took = time.monotonic() - t0
    assert took < DEADLINE + 1.5, took
    assert "deadline" in err.value.message
    print(f"\ntrickle (streamed={streamed}): {type(err.value).__name__} after {took:.1f} s: {err.value.message}")


def test_never_answering_server_hits_the_deadline(ollama_stub):
    ollama_stub.mode = "never_answer"
    t0 = time.monotonic()
    with pytest.raises(LlmUnavailable) as err:
        complete_structured("cvrag-default", MSGS, Person, base_url=ollama_stub.url, timeout=DEADLINE)
    assert time.monotonic() - t0 < DEADLINE + 1.5
    print(f"\nnever answers: {err.value.message}")


@pytest.mark.parametrize("streamed", [False, True])
def test_flood_reply_is_refused(ollama_stub, streamed):
    ollama_stub.mode = "flood"
    shown: list[str] = []
    with pytest.raises(LlmReplyTooLarge) as err:
        complete_text("cvrag-quality", MSGS, base_url=ollama_stub.url, timeout=30, max_tokens=512,
                      on_token=shown.append if streamed else None)
    assert sum(map(len, shown)) <= 512 * 16
    assert "refused" in err.value.message
    print(f"\nflood (streamed={streamed}): {err.value.message}")


def test_cancel_stops_waiting_at_once(ollama_stub):
    ollama_stub.mode = "never_answer"
    t0 = time.monotonic()
    with pytest.raises(Cancelled):
        complete_text("cvrag-quality", MSGS, base_url=ollama_stub.url, timeout=60,
                      should_cancel=lambda: time.monotonic() - t0 > 0.3)
    assert time.monotonic() - t0 < 1.5


@pytest.mark.parametrize("mode", ["trickle", "flood", "never_answer"])
def test_ask_and_ingest_survive_a_misbehaving_server(ollama_stub, monkeypatch, tmp_path, mode):
    """`ask` answers (deterministic fallback) within its deadlines; ingest leaves nothing in processing."""
    from cvrag_desktop.app.assembly import App
    from cvrag_desktop.config import app_paths, load_settings, save_settings
    from tests.support.fault_cvs import write_corpus

    monkeypatch.setenv("CVRAG_LLM_URL", ollama_stub.url)
    ollama_stub.trickle_interval = 0.5
    paths = app_paths().ensure()
    save_settings(load_settings(paths).model_copy(update={"llm_timeout_s": DEADLINE}), paths)
    svc = App()
    assert svc.settings.llm_timeout_s == DEADLINE
    ollama_stub.mode = "normal"
    folder = tmp_path / "in"
    write_corpus(folder)
    ollama_stub.mode = mode
    t0 = time.monotonic()
    report = svc.library.ingest([folder], workers=1)
    took_ingest = time.monotonic() - t0
    assert report.ingested == 3
    assert svc.library.files("processing") == [] and svc.library.files("queued") == []
    n = len(svc.people.list_candidates())
    t0 = time.monotonic()
    result = svc.assistant.ask("Who knows Kafka?")
    took = time.monotonic() - t0
    assert result["answer"]
    assert len(result["answer"]) < 100_000
    assert took < 6 * DEADLINE + 5, took  # a few model calls, each bounded by the deadline
    assert len(svc.people.list_candidates()) == n == 3
    threads = svc.paths.data_dir / "threads.sqlite3"
    assert threads.stat().st_size < 5_000_000
    print(f"\n{mode}: ingest {took_ingest:.1f} s, ask {took:.1f} s -> {result['status']}")
    svc.close()
