"""A circuit breaker per model endpoint: a hung model costs one timeout, not one per file.

Without it, an import with a hung Ollama waited the full request timeout (~120 s) for
every CV. After a timeout, or after ``llm_breaker_failures`` failed calls in a row
(refused, HTTP errors), the endpoint is marked *down*: every call fails at once with
:class:`~cvrag_desktop.errors.LlmUnavailable` and the callers take their deterministic
path. It stays down for the rest of a batch (:meth:`CircuitBreaker.batch`) and at least
``llm_cooldown_s`` seconds; then the next call is let through, and one success closes the
breaker again. A reply that arrives but fails validation is not a failure here: the
model is up.

The state is process-wide (one breaker for every caller), keyed by endpoint URL.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from cvrag_desktop.config import load_settings
from cvrag_desktop.errors import LlmUnavailable

DEFAULT_FAILURES = 3
DEFAULT_COOLDOWN_S = 300.0


@dataclass
class _Endpoint:
    failures: int = 0
    down_since: float | None = None
    down_until: float = 0.0
    reason: str = ""
    refused: int = 0  # calls refused while down (files/questions answered without the model)


def _configured() -> tuple[int, float]:
    """(failures in a row that trip the breaker, cool-down seconds) from the settings."""
    try:
        s = load_settings()
        return (int(getattr(s, "llm_breaker_failures", DEFAULT_FAILURES)),
                float(getattr(s, "llm_cooldown_s", DEFAULT_COOLDOWN_S)))
    except Exception:  # unreadable settings must not break the fallback itself
        return DEFAULT_FAILURES, DEFAULT_COOLDOWN_S


class CircuitBreaker:
    """Marks a model endpoint down after a timeout or a run of failures (see the module doc)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 config: Callable[[], tuple[int, float]] = _configured) -> None:
        self._clock = clock
        self._config = config
        self._lock = threading.Lock()
        self._endpoints: dict[str, _Endpoint] = {}
        self._batches = 0
        self._epoch = 0  # counts outermost batches: what :meth:`once_per_batch` remembers against
        self._once: dict[str, int] = {}

    def _get(self, endpoint: str) -> _Endpoint:
        return self._endpoints.setdefault(endpoint.rstrip("/"), _Endpoint())

    def _is_down(self, ep: _Endpoint) -> bool:
        return ep.down_since is not None and (self._batches > 0 or self._clock() < ep.down_until)

    def check(self, endpoint: str, model: str = "") -> None:
        """Raise ``LlmUnavailable`` at once when the endpoint is marked down; else let the call go."""
        with self._lock:
            ep = self._get(endpoint)
            if not self._is_down(ep):
                return
            ep.refused += 1
            reason = ep.reason
        raise LlmUnavailable(f"The language model{f' ({model})' if model else ''} at {endpoint} is marked down "
                             f"({reason}); the deterministic path is used until it has cooled down.")

    def success(self, endpoint: str) -> None:
        """A call returned: the endpoint is up (closes the breaker)."""
        with self._lock:
            self._endpoints[endpoint.rstrip("/")] = _Endpoint()

    def failure(self, endpoint: str, reason: str, *, timed_out: bool) -> None:
        """A call failed to get a reply; a timeout, or the Nth failure in a row, marks the endpoint down."""
        failures, cooldown = self._config()
        with self._lock:
            ep = self._get(endpoint)
            ep.failures += 1
            if timed_out or ep.failures >= failures:
                now = self._clock()
                if ep.down_since is None:
                    ep.down_since = now
                ep.down_until = now + cooldown
                ep.reason = reason[:200]

    def down(self, endpoint: str) -> bool:
        """True while calls to ``endpoint`` are refused."""
        with self._lock:
            return self._is_down(self._get(endpoint))

    def status(self, endpoint: str) -> str | None:
        """A sentence for the status bar and the import summary, or None when the model is not marked down."""
        with self._lock:
            ep = self._get(endpoint)
            if not self._is_down(ep):
                return None
            left = max(0.0, ep.down_until - self._clock())
            skipped = ep.refused
            reason = ep.reason
        wait = f"{left / 60:.0f} min" if left >= 90 else f"{left:.0f} s"
        when = "after this import" if self._batches and left == 0 else f"in {wait}" + (
            " (not during this import)" if self._batches else "")
        return (f"The language model is marked down ({reason}); {skipped} request(s) since then went the "
                f"deterministic way without waiting for it. It is tried again {when}.")

    @contextmanager
    def batch(self) -> Iterator[None]:
        """While inside, a tripped endpoint stays down whatever the cool-down (one import = one decision)."""
        with self._lock:
            if self._batches == 0:
                self._epoch += 1
            self._batches += 1
        try:
            yield
        finally:
            with self._lock:
                self._batches -= 1

    def once_per_batch(self, key: str) -> bool:
        """True the first time ``key`` is asked about inside a batch (an import), False after and outside one."""
        with self._lock:
            if self._batches == 0 or self._once.get(key) == self._epoch:
                return False
            self._once[key] = self._epoch
            return True

    def reset(self) -> None:
        """Forget every endpoint's state (after the user changes the endpoint, and between tests)."""
        with self._lock:
            self._endpoints.clear()
            self._once.clear()


BREAKER = CircuitBreaker()
"""The process-wide breaker the gateway consults."""
