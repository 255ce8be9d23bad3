"""Importing the app keeps PyMuPDF's optional ONNX layout analyser unloaded (memory of every worker)."""

from __future__ import annotations

import subprocess
import sys


def test_pymupdf_layout_models_are_never_loaded():
    code = "import cvrag_desktop, pymupdf, sys; print(getattr(pymupdf, '_get_layout', None), 'onnxruntime' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["None", "False"]


def test_mupdf_messages_never_reach_stdout(tmp_path):
    """A damaged stream makes MuPDF print "MuPDF error: …"; that goes to the log, never into stdout."""
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"%PDF-1.4\n1 0 obj<</Length 20/Filter/FlateDecode>>stream\nnot zlib at all....\nendstream endobj\n"
                    b"2 0 obj<</Type/Page/Contents 1 0 R/MediaBox[0 0 100 100]>>endobj\n"
                    b"3 0 obj<</Type/Pages/Kids[2 0 R]/Count 1>>endobj\n4 0 obj<</Type/Catalog/Pages 3 0 R>>endobj\n"
                    b"trailer<</Root 4 0 R>>\n%%EOF\n")
    code = f"import cvrag_desktop, pymupdf; d = pymupdf.open({str(bad)!r}); [p.get_text() for p in d]; print('done')"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.stdout.strip() == "done"
    assert "MuPDF" not in run.stderr


def test_onnx_runtime_writes_no_telemetry_identifier(tmp_path):
    """Importing the app turns ONNX Runtime's telemetry off before its first session: no device id, no event
    cache under the user's home (ORT 1.32 on Linux wrote both, for upload when online)."""
    import os

    from cvrag_desktop.index.embeddings import resolve_models

    model = resolve_models(None).dense_onnx
    env = {k: v for k, v in os.environ.items() if not k.startswith("ORT_")}
    env.update(HOME=str(tmp_path), XDG_CACHE_HOME=str(tmp_path / ".cache"))
    code = ("import cvrag_desktop, onnxruntime as ort; "
            f"ort.InferenceSession({model!r}, providers=['CPUExecutionProvider']); print('ok')")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert run.stdout.strip() == "ok", run.stderr
    assert not [p for p in tmp_path.rglob("*") if "onnxruntime" in str(p).lower()], list(tmp_path.rglob("*"))
