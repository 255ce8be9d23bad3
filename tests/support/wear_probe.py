"""A stand-in parser for the OCR worker's wear tests (runs in the worker; no real OCR).

On the parse lane every job asks for the OCR lane. There a "scan" touches ``peak_mb`` of
memory for the time of the file, as OCR does, and keeps ``keep_mb`` of it after it returns,
as ONNX Runtime and the allocator keep what a scan made them take: a reused worker grows
from file to file.
"""

from __future__ import annotations

import os

_KEPT: list[bytes] = []


def wear_probe(name: str, keep_mb: int, peak_mb: int, lane: str = "parse") -> dict:
    """Behave like ``parse_file`` on a scan: deferred to OCR, then a transient peak and a leftover."""
    if lane == "parse":
        return {"ok": False, "status": "queued", "defer": "ocr", "pages": 1,
                "args": (name, keep_mb, peak_mb, "ocr"), "seconds": 0.0}
    block = 1 << 20
    transient = [b"\x01" * block for _ in range(peak_mb)]  # written, so resident
    _KEPT.extend(b"\x02" * block for _ in range(keep_mb))
    del transient
    return {"ok": True, "status": "done", "pid": os.getpid(), "seconds": 0.0}
