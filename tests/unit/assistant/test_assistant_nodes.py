"""After a rejected or timed-out model reply, the shown answer is the one ``--no-llm`` gives.

The stub's "model" re-routes the question (so its evidence differs from the rules' own)
and then answers with invented facts attached to a real excerpt id, or never answers.
"""

from __future__ import annotations

import json

import pytest

from tests.unit.assistant.conftest import make_assistant

QUESTIONS = ["Who has Kafka experience?", "Who built event streaming pipelines?", "Who led engineers through migrations?"]


def _shown(result: dict) -> tuple:
    """What the user sees: status, text, and which chunks are cited."""
    return result["status"], result["answer"], [c["chunk_id"] for c in result["citations"]]


def _no_llm(catalog, search, question: str) -> dict:
    a = make_assistant(catalog, search)
    try:
        return a.ask(question, use_llm=False)
    finally:
        a.close()


def _fabricating(llm_script):
    """Answers every answer request with invented facts cited to the first excerpt it was given."""
    def responder(request):
        if not request["messages"][0]["content"].startswith("You answer"):
            return llm_script(request)
        llm_script.answer_requests.append(request)
        prompt = next(m["content"] for m in request["messages"] if "<excerpt " in m["content"])
        eid = prompt.split("<excerpt ")[1].split('"')[1]
        return json.dumps({"status": "answered", "citations": [eid],
                           "answer": f"She has 40 years of Kafka at NASA, a PhD from MIT and a criminal record [{eid}]."})
    return responder


@pytest.mark.parametrize("question", QUESTIONS)
def test_a_fabricated_claim_is_rejected_and_the_no_llm_answer_is_shown(catalog, search, ollama_stub, llm_script,
                                                                       question):
    expected = _no_llm(catalog, search, question)
    llm_script.route = {"route": "hybrid"}  # the model re-routes: its evidence is not the rules' evidence
    ollama_stub.responder = _fabricating(llm_script)
    a = make_assistant(catalog, search, ollama_stub.url)
    try:
        result = a.ask(question)
    finally:
        a.close()
    assert len(llm_script.answer_requests) == 2  # the first reply and the one repair retry were both asked for
    assert result["mode"] == "deterministic"
    assert any("NASA" in n and "does not say" in n for n in result["notes"])
    assert _shown(result) == _shown(expected)
    assert result["route"] == expected["route"]
    print(f"\n{question!r}: shown = --no-llm answer ({expected['route']}): {result['answer'][:80]!r}")


def test_a_model_that_never_answers_gives_the_no_llm_answer(catalog, search, ollama_stub):
    question = QUESTIONS[0]
    expected = _no_llm(catalog, search, question)
    ollama_stub.mode = "never_answer"  # the endpoint is up (tags answer), chat requests hang
    a = make_assistant(catalog, search, ollama_stub.url, timeout=1.0)
    try:
        result = a.ask(question)
    finally:
        a.close()
    assert ollama_stub.chat_requests  # the model was asked and did not answer in time
    assert result["mode"] == "deterministic"
    assert _shown(result) == _shown(expected)
