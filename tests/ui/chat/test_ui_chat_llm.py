"""Chat pane against the loopback Ollama stub: the draft streams (marked unchecked) and the validated
answer replaces it; a newer question cancels the older; the log holds no CV text."""

from __future__ import annotations

import json
import logging

import pytest

from tests.support.ollama_stub import StubReply
from tests.ui.chat.test_ui_chat import ask
from tests.unit.assistant.conftest import LlmScript

Q = "Who built data pipelines?"


def answer_for(request: dict) -> str:
    """A well-formed cited answer: the first excerpt that mentions data (no name: two CVs share one)."""
    prompt = request["messages"][1]["content"]
    block = next(b for b in prompt.split("<excerpt ")[1:] if "data" in b.lower())
    eid = block.split('"')[1]
    return json.dumps({"status": "answered", "answer": f"This candidate built data pipelines as a data engineer [{eid}].",
                       "citations": [eid]})


@pytest.fixture
def llm_window(ollama_stub, monkeypatch, request):
    """The chat window with the stub as its language model."""
    script = LlmScript()
    replies: list = []

    def responder(req):
        if req["messages"][0]["content"].startswith("You answer"):
            reply = replies.pop(0) if replies else None
            if isinstance(reply, StubReply):
                return StubReply(content=answer_for(req), delay=reply.delay)
            return answer_for(req)
        return script(req)

    ollama_stub.responder = responder
    monkeypatch.setenv("CVRAG_LLM_URL", ollama_stub.url)
    win = request.getfixturevalue("chat_window")
    win.replies = replies
    return win


def test_draft_streams_then_validated_answer_replaces_it(llm_window, qtbot, ollama_stub):
    pane = llm_window.chat
    assert pane.llm_up is True and not pane.mode_banner.isVisible()
    seen: list[tuple[str, str, bool]] = []
    pane.input.setText(Q)
    pane.send_btn.click()
    card = pane.transcript.cards[-1]
    real = card.set_draft

    def spy(text: str) -> None:
        real(text)
        seen.append((card.state, card.badge.text(), card.body.font().italic()))

    card.set_draft = spy
    qtbot.waitUntil(lambda: card.state in ("answered", "unknown", "failed"), timeout=60_000)
    assert seen, "no draft was streamed"
    assert all(s == ("draft", "Draft — not yet checked", True) for s in seen)
    assert card.state == "answered" and card.badge.text() == "Answer" and not card.body.font().italic()
    assert "built data pipelines" in card.body.text() and "language model, checked" in card.meta.text()
    assert len(card.chips) == 1 and card.citations[0]["evidence_id"] in card.body.text()
    assert any(r.path == "/api/chat" and (r.body or {}).get("stream") for r in ollama_stub.requests)


def test_newer_question_cancels_the_older(llm_window, qtbot):
    pane = llm_window.chat
    llm_window.replies.append(StubReply(delay=3.0))  # the first answer is slow
    pane.ask(Q)
    first = pane.transcript.cards[-1]
    qtbot.waitUntil(lambda: not llm_window.replies, timeout=60_000)  # its slow answer is being written
    pane.ask("Who built data pipelines at a food company?")
    second = pane.transcript.cards[-1]
    assert first.state == "cancelled" and "newer question" in first.badge.text()
    qtbot.waitUntil(lambda: second.state in ("answered", "unknown", "failed"), timeout=60_000)
    assert second.state in ("answered", "unknown") and first.state == "cancelled"


def test_log_has_no_cv_text(llm_window, qtbot):
    from cvrag_desktop.ui.shell.application import setup_logging
    from cvrag_desktop.ui.shell.errors import log_file

    paths = llm_window.services.paths
    root = logging.getLogger()
    before = list(root.handlers)
    level = root.level
    setup_logging(paths)
    try:
        card = ask(qtbot, llm_window.chat, Q)
        card2 = ask(qtbot, llm_window.chat, "Who speaks German?")
        for h in root.handlers:
            h.flush()
    finally:
        for h in root.handlers[:]:
            if h not in before:
                root.removeHandler(h)
                h.close()
        root.setLevel(level)
    text = log_file(paths.log_dir).read_text(encoding="utf-8")
    cv_bits = [c["quote"][:25] for c in card.citations + card2.citations] + \
              [c["candidate_name"] for c in card.citations + card2.citations]
    assert cv_bits and not [b for b in cv_bits if b and b in text]
    assert "Who built data pipelines" not in text  # questions are not logged either
