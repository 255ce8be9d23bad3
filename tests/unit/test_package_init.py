"""Importing the app keeps PyMuPDF's optional ONNX layout analyser unloaded (memory of every worker)."""

from __future__ import annotations

import subprocess
import sys


def test_pymupdf_layout_models_are_never_loaded():
    code = "import cvrag_desktop, pymupdf, sys; print(getattr(pymupdf, '_get_layout', None), 'onnxruntime' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["None", "False"]
