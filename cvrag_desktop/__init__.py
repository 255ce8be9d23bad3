"""CV RAG Desktop: offline CV parsing, search and cited answers for recruiters."""

import os as _os
import sys as _sys

__version__ = "0.1.0"

# PyMuPDF 2 imports its optional layout analyser (pymupdf.layout) and Markdown helpers (pymupdf4llm,
# which imports ONNX Runtime) on ``import pymupdf``; the analyser loads its ONNX models then: ~60 MB
# and threads in every process, and inside a parse worker's memory cap the load fails with bad_alloc.
# The app reads layout itself and calls neither, so both imports are blocked here, before any module
# imports pymupdf (PyMuPDF catches the ImportError and works without them).
for _optional in ("pymupdf.layout", "pymupdf4llm"):
    _sys.modules.setdefault(_optional, None)

# ONNX Runtime (embeddings, OCR) ships telemetry on Linux and macOS since 1.2x: at the first session it writes a
# device id and an event cache (~/.cache/Microsoft/DeveloperTools/.onnxruntime/) to upload when a network is there.
# An air-gapped screening tool sends nothing: both spellings of its opt-out are set before it is imported, in every
# process (workers inherit them); with them set it creates no uploader, identifier or cache at all.
for _flag in ("ORT_DISABLE_TELEMETRY", "ORT_TELEMETRY_DISABLED"):
    _os.environ.setdefault(_flag, "1")

# MuPDF's own messages ("MuPDF error: zlib error …" on a damaged stream) go to stdout by default,
# where they break `--json` output and reach the user's terminal: send them to the log instead.
_os.environ.setdefault("PYMUPDF_MESSAGE", "logging:name=pymupdf,level=10")

# pypdf (the fallback reader) and PyMuPDF report a damaged file through logging; with no handler set up,
# Python's last-resort handler prints those records on stderr ("EOF marker not found") from every worker,
# between the import's own lines. A null handler on each keeps them off the terminal; records still reach
# the app's log file where one is set up (the GUI's root handler), and the reason shown is our own.
import logging as _logging  # noqa: E402

for _name in ("pypdf", "pymupdf", "PIL", "docx"):
    _logging.getLogger(_name).addHandler(_logging.NullHandler())
