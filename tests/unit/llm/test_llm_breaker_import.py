"""A hung model during a 20-CV import costs one timeout, not one per CV (the circuit breaker).

Measured as counts: model calls that reached the hung server (each waited for the
timeout) and files read without the model. The wall times of the import with and
without the model are printed, not asserted (speed belongs in benchmarks).
"""

from __future__ import annotations

import time

from tests.support.fault_cvs import write_cv

N = 20
TIMEOUT = 1.0


def _corpus(folder, tag: str) -> None:
    for i in range(N):
        write_cv(folder, f"cv_{i:02d}", name=f"Quillon Verbrugge {chr(65 + i)}", email=f"person{i}.{tag}@example.org",
                 phrase=f"Designed {tag} ledger engine number {i} for Brontide Logistics")


def test_a_hung_model_is_waited_for_once_in_a_twenty_cv_import(ollama_stub, monkeypatch, tmp_path):
    from cvrag_desktop.app.assembly import App
    from cvrag_desktop.config import app_paths, load_settings, save_settings
    from cvrag_desktop.llm.gateway import load_litellm

    load_litellm()  # its import is not the model's time
    monkeypatch.setenv("CVRAG_LLM_URL", ollama_stub.url)
    paths = app_paths().ensure()
    save_settings(load_settings(paths).model_copy(update={"llm_timeout_s": TIMEOUT}), paths)
    plain, hung = tmp_path / "plain", tmp_path / "hung"
    _corpus(plain, "plain")
    _corpus(hung, "hung")

    svc = App()
    t0 = time.monotonic()
    without = svc.library.ingest([plain], use_llm=False, workers=1)
    took_without = time.monotonic() - t0

    ollama_stub.mode = "never_answer"  # the endpoint is up (tags answer); chat requests hang
    t0 = time.monotonic()
    report = svc.library.ingest([hung], use_llm=True, workers=1)
    took_with = time.monotonic() - t0
    waited = len(ollama_stub.chat_requests)

    assert without.ingested == N and report.ingested == N  # other files (other sha), the same kind
    assert waited == 1, waited  # without the breaker: one timeout per CV (20)
    assert ollama_stub.chat_requests[0]["messages"] == []  # the import's load request, not a CV's call
    assert report.llm_note and "marked down" in report.llm_note
    assert f"{N - waited} request(s)" in report.llm_note  # the other files were read without asking
    assert svc.library.files("processing") == []
    print(f"\n{N} CVs: without the model {took_without:.1f} s; with a hung model {took_with:.1f} s "
          f"(ratio {took_with / took_without:.2f}); model calls that waited for the {TIMEOUT:g} s timeout: {waited}; "
          f"note: {report.llm_note}")
    svc.close()
