"""Serialized first access to the lazily opened core parts (index, assistant) from workers.

``Services.index`` and ``Services.assistant`` are opened on first use; two workers
touching them at the same moment could open the local index twice. Every GUI worker
goes through these helpers, which hold one lock only while the part is being opened.
``warm_up`` opens both and loads the embedding models at start-up, so the first-time
costs (imports, ONNX session, tokenizer) are paid before an import or a question and
not in the middle of one.
"""

from __future__ import annotations

import logging
import threading
import time

log = logging.getLogger(__name__)
_OPEN = threading.Lock()


def index(services):
    """``services.index``, opened at most once even when several workers ask together."""
    with _OPEN:
        return services.index


def assistant(services):
    """``services.assistant``, opened at most once (it opens the index first)."""
    with _OPEN:
        return services.assistant


def warm_up(services) -> dict:
    """Open everything the first minutes need, one step after the other (runs in one worker).

    Index, embedding models, assistant, the language-model probe (imports LiteLLM) and the
    status-bar facts: doing them in sequence in a single worker keeps
    at most one thread busy with imports and module initialisation, which hold the GIL, so
    the GUI thread keeps its turn. Returns ``timings`` (ms), ``doctor`` (for the status bar)
    and ``llm_up``; a failure is logged by type only and reported as ``error``.
    """
    from cvrag_desktop.ui.status import status_info

    timings: dict[str, int] = {}
    out: dict = {"timings": timings}
    steps = (
        ("index_ms", lambda: index(services)),
        ("models_ms", lambda: services.search("warm up", None, 1, "hybrid")),  # loads dense + sparse models
        ("assistant_ms", lambda: assistant(services)),
        ("llm_ms", lambda: out.__setitem__("llm_up", assistant(services).llm_available())),
        ("status_ms", lambda: out.__setitem__("doctor", status_info(services))),
    )
    for name, step in steps:
        t0 = time.perf_counter()
        try:
            step()
        except Exception as exc:  # the panes report their own errors when used
            log.warning("warm-up step %s failed: %s", name, type(exc).__name__)
            out["error"] = type(exc).__name__
        timings[name] = round((time.perf_counter() - t0) * 1000)
    return out
