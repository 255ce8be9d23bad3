"""A stand-in parser for the OCR lane's order test (runs in the worker; no real OCR).

On the parse lane every job asks to be deferred to the OCR lane with ``pages`` pages to OCR;
on the OCR lane a job with a ``gate`` waits until that file exists, the others finish at once.
"""

from __future__ import annotations

import os
import time
from pathlib import Path


def order_probe(name: str, pages: int, gate: str = "", lane: str = "parse") -> dict:
    """Defer to the OCR lane, then "OCR" (after the gate file appears, when there is one)."""
    if lane == "parse":
        return {"ok": False, "status": "queued", "defer": "ocr", "pages": pages, "args": (name, pages, gate, "ocr"),
                "seconds": 0.0}
    while gate and not Path(gate).exists():
        time.sleep(0.02)
    return {"ok": True, "name": name, "lane": lane, "pid": os.getpid()}
