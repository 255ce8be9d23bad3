"""Before an import's first model call: does the model answer at all? A hung model costs seconds, not minutes.

An import asks the model once per CV. Against a hung model runner (Ollama lists its models, so
the health probe passes, but a chat request is accepted and never answered) the first call
waited the route's whole timeout (120 s) before the circuit breaker opened: 20 CVs took 128 s
against 5.5 s with no model. Two bounds now hold during an import:

- every model call of the import waits at most :data:`IMPORT_TIMEOUT_S` (15 s), and its
  timeout opens the breaker (:mod:`.breaker`) for the rest of the batch;
- once per batch and endpoint, before the first call, :func:`ensure_ready` sends Ollama's
  "load" request (a chat with no messages: Ollama answers it as soon as the model is in
  memory, without generating). When ``/api/ps`` lists the model as loaded, the answer must
  come within :data:`READY_LOADED_S` (3 s); a model that still has to be loaded, or whose
  state ``/api/ps`` cannot tell, gets :data:`IMPORT_TIMEOUT_S`. No answer in time is a timeout: the breaker opens
  and the whole import goes the deterministic way, having waited those seconds once.

Any HTTP answer (even an error) proves the endpoint is not hung; the real call then says what
is wrong. Only Ollama routes are checked (an OpenAI-compatible server has no load request):
for them the 15 s cap is the bound.
"""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from typing import Any

from cvrag_desktop.errors import LlmTimedOut, LlmUnavailable
from cvrag_desktop.llm.breaker import BREAKER
from cvrag_desktop.llm.config import ModelRoute
from cvrag_desktop.llm.gateway import run_with_deadline

IMPORT_TIMEOUT_S = 15.0
"""The most an import waits for one model call (the route's own timeout, if shorter, wins)."""
READY_LOADED_S = 3.0
"""The most an import waits for the load request of a model that is already in memory."""
PS_TIMEOUT_S = 1.5


def import_timeout(route: ModelRoute) -> float:
    """The per-call timeout of a model call made during an import."""
    return min(route.timeout, IMPORT_TIMEOUT_S)


def _opener() -> urllib.request.OpenerDirector:
    return urllib.request.build_opener(urllib.request.ProxyHandler({}))  # local endpoint: never a proxy


def model_loaded(route: ModelRoute) -> bool | None:
    """Is the route's model in the endpoint's memory (``GET /api/ps``)? None when the endpoint cannot tell."""
    try:
        with _opener().open(f"{route.api_base}/api/ps", timeout=PS_TIMEOUT_S) as response:
            data = json.loads(response.read(1_000_000).decode("utf-8"))
    except Exception:  # old Ollama (no /api/ps), hung, refused, not JSON: it cannot tell
        return None
    entries = data.get("models") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return None
    names = {str(e.get(k)) for e in entries if isinstance(e, dict) for k in ("name", "model")}
    want = route.provider_model
    return bool({want, f"{want}:latest"} & names)


def _load_request(route: ModelRoute, timeout: float) -> None:
    """Ollama's load request: a chat with no messages, answered once the model is in memory."""
    body: dict[str, Any] = {"model": route.provider_model, "messages": [], "stream": False}
    if route.params.get("keep_alive"):
        body["keep_alive"] = route.params["keep_alive"]
    request = urllib.request.Request(f"{route.api_base}/api/chat", data=json.dumps(body).encode("utf-8"),
                                     headers={"Content-Type": "application/json"}, method="POST")
    try:
        with _opener().open(request, timeout=timeout) as response:
            response.read(100_000)
    except urllib.error.HTTPError:
        return  # it answered: not hung (the real call reports what is wrong)


def _timed_out(exc: BaseException) -> bool:
    if isinstance(exc, TimeoutError | socket.timeout):
        return True
    return isinstance(exc, urllib.error.URLError) and isinstance(exc.reason, TimeoutError | socket.timeout)


def ensure_ready(route: ModelRoute) -> None:
    """Once per batch and endpoint: raise :class:`LlmTimedOut` (breaker opened) when the model does not
    answer its load request in time, :class:`LlmUnavailable` when the endpoint refuses; else return.

    Outside a batch, for a non-Ollama route, and after the first call of a batch, it returns at once.
    """
    if not route.is_ollama or not BREAKER.once_per_batch(f"ready {route.api_base} {route.model}"):
        return
    BREAKER.check(route.api_base, route.model)
    # only a model Ollama lists as loaded gets the short wait: "cannot tell" (an old Ollama, a busy
    # endpoint whose /api/ps was slow) may mean it still has to load, and a healthy model is not a hung one
    deadline = min(READY_LOADED_S, import_timeout(route)) if model_loaded(route) is True else import_timeout(route)
    where = f"{route.model} at {route.api_base}"
    try:
        run_with_deadline(lambda _abandoned: _load_request(route, deadline), deadline, route)
    except (LlmTimedOut, urllib.error.URLError, OSError) as exc:
        if isinstance(exc, LlmTimedOut) or _timed_out(exc):
            error = LlmTimedOut(f"The language model ({where}) did not answer its load request within "
                                f"{deadline:g} s")
            BREAKER.failure(route.api_base, error.message, timed_out=True)
            raise error from exc
        BREAKER.failure(route.api_base, f"{exc}", timed_out=False)
        raise LlmUnavailable(f"Cannot reach the language model ({where}): {exc}") from exc
