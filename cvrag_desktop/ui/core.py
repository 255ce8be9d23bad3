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
    """Open the index and the assistant and load the embedding models (runs in a worker).

    Returns timings in ms; failures are logged (by type only) and reported as ``error``.
    """
    out: dict = {}
    t0 = time.perf_counter()
    try:
        index(services)
        out["index_ms"] = round((time.perf_counter() - t0) * 1000)
        t1 = time.perf_counter()
        services.search("warm up", None, 1, "hybrid")  # loads the dense and sparse models
        out["models_ms"] = round((time.perf_counter() - t1) * 1000)
        t2 = time.perf_counter()
        assistant(services)
        out["assistant_ms"] = round((time.perf_counter() - t2) * 1000)
    except Exception as exc:  # the panes report their own errors when used
        log.warning("warm-up stopped: %s", type(exc).__name__)
        out["error"] = type(exc).__name__
    return out
