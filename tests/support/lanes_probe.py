"""A stand-in parser for the sandbox's OCR-lane tests (runs in the worker; no real OCR).

``("text", s)`` sleeps ``s`` seconds and succeeds. ``("scan", marker)`` on the parse lane
asks to be deferred to the OCR lane (``("loop", _)`` asks it on every lane); there it announces OCR, reports pages 1..3 and then
waits until the file ``marker`` exists (the test creates it once the text jobs are done,
so a scan that held up the text jobs would never finish: the test fails on its deadline).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

PAGES = 3


def lane_probe(action: str, arg: object = 0.0, lane: str = "parse") -> dict:
    """Behave like ``parse_file``: text files finish, scans are deferred, then "OCR'd" page by page."""
    from cvrag_desktop.ingestion.read.sandbox_worker import announce

    if action == "text":
        time.sleep(float(arg))
        return {"ok": True, "lane": lane, "pid": os.getpid()}
    if lane == "parse" or action == "loop":  # "loop": a buggy target that defers even on the OCR lane
        return {"ok": False, "status": "queued", "defer": "ocr", "pages": PAGES, "args": (action, arg, "ocr"),
                "seconds": 0.0}
    announce("ocr")
    for page in range(1, PAGES + 1):
        announce("ocr", page, PAGES)
        if page == 2:
            while not Path(str(arg)).exists():
                time.sleep(0.02)
    return {"ok": True, "lane": lane, "pid": os.getpid()}
