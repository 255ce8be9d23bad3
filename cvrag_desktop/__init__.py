"""CV RAG Desktop: offline CV parsing, search and cited answers for recruiters."""

import sys as _sys

__version__ = "0.1.0"

# PyMuPDF 2 imports its optional layout analyser (pymupdf.layout) on ``import pymupdf`` and loads
# its ONNX models then: ~60 MB and threads in every process, and inside a parse worker's memory
# cap the load fails with bad_alloc. The app reads layout itself and never calls it, so the
# import is blocked here, before any module imports pymupdf (PyMuPDF catches the ImportError).
_sys.modules.setdefault("pymupdf.layout", None)
