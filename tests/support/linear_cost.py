"""Helpers for the linear-time tests: a call's best-of-three cost and a line repeating one shape."""

from __future__ import annotations

import time

MAX_RATIO = 40  # linear gives ~10 for a ten times longer line; quadratic gives ~100


def cost(fn, arg) -> float:
    """The best of three runs (load on a shared machine only ever adds time)."""
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        fn(arg)
        best = min(best, time.perf_counter() - t0)
    return max(best, 1e-4)


def line(shape: str, n: int) -> str:
    """``shape`` repeated to exactly ``n`` characters."""
    return (shape * (n // len(shape) + 1))[:n]
