"""Optional cross-encoder reranking from a local models folder.

No cross-encoder ships with the application. When a folder under the user models
folder (``<data dir>/models/``) holds an ONNX cross-encoder — ``model.onnx`` (or
``onnx/model.onnx``, the sentence-transformers/Optimum layout) plus ``tokenizer.json`` —
it is loaded with onnxruntime and used to re-score (query, chunk) pairs. Otherwise the
stage is skipped and :func:`find_reranker` says why (``cvrag doctor`` shows it). A
sentence-transformers folder with only PyTorch weights is reported, not loaded: no
torch at run time.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)

ONNX_NAMES = ("model.onnx", "onnx/model.onnx", "model_quantized.onnx", "onnx/model_quantized.onnx")
TORCH_NAMES = ("pytorch_model.bin", "model.safetensors")
PREFERRED = ("reranker", "cross-encoder", "cross_encoder")
SKIP = ("all-MiniLM-L6-v2",)
MAX_PAIR_TOKENS = 512


@dataclass
class RerankerInfo:
    """What the search found in the models folder."""

    available: bool
    path: str | None
    reason: str


def _candidates(models_dir: Path) -> list[Path]:
    if not models_dir.is_dir():
        return []
    dirs = [d for d in sorted(models_dir.iterdir()) if d.is_dir() and d.name not in SKIP]
    return sorted(dirs, key=lambda d: not any(p in d.name.lower() for p in PREFERRED))


def find_reranker(models_dir: Path | None) -> tuple[RerankerInfo, OnnxCrossEncoder | None]:
    """Locate and load a cross-encoder; returns (info, model or None)."""
    if models_dir is None:
        return RerankerInfo(False, None, "no models folder"), None
    torch_only: Path | None = None
    for d in _candidates(models_dir):
        onnx = next((d / n for n in ONNX_NAMES if (d / n).is_file()), None)
        if onnx is None:
            if any((d / n).is_file() for n in TORCH_NAMES):
                torch_only = d
            continue
        if not (d / "tokenizer.json").is_file():
            continue
        try:
            model = OnnxCrossEncoder(onnx, d / "tokenizer.json")
        except Exception as exc:  # a broken file must not break search
            log.warning("reranker at %s failed to load: %s", d, exc)
            return RerankerInfo(False, str(d), f"failed to load: {exc}"), None
        return RerankerInfo(True, str(onnx), "loaded"), model
    if torch_only is not None:
        return RerankerInfo(False, str(torch_only), "found PyTorch weights only; export the model to ONNX"), None
    return RerankerInfo(False, None, f"no cross-encoder in {models_dir} (reranking skipped)"), None


class OnnxCrossEncoder:
    """A (query, passage) relevance scorer running an ONNX sequence-classification model."""

    def __init__(self, onnx_path: Path, tokenizer_path: Path, threads: int | None = None) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        so = ort.SessionOptions()
        if threads:
            so.intra_op_num_threads = threads
        self.session = ort.InferenceSession(str(onnx_path), sess_options=so, providers=["CPUExecutionProvider"])
        self.inputs = {i.name for i in self.session.get_inputs()}
        self.tokenizer = Tokenizer.from_file(str(tokenizer_path))
        limit = MAX_PAIR_TOKENS
        cfg = tokenizer_path.parent / "tokenizer_config.json"
        if cfg.is_file():
            value = json.loads(cfg.read_text(encoding="utf-8")).get("model_max_length")
            if isinstance(value, int) and 0 < value < limit:
                limit = value
        self.tokenizer.enable_truncation(max_length=limit)
        self.tokenizer.enable_padding()
        self._lock = threading.Lock()

    def score(self, query: str, passages: list[str], batch_size: int = 16) -> list[float]:
        """One relevance score per passage (higher is better)."""
        out: list[float] = []
        for start in range(0, len(passages), batch_size):
            batch = passages[start : start + batch_size]
            with self._lock:
                enc = self.tokenizer.encode_batch([(query, p) for p in batch])
                feed = {
                    "input_ids": np.array([e.ids for e in enc], dtype=np.int64),
                    "attention_mask": np.array([e.attention_mask for e in enc], dtype=np.int64),
                    "token_type_ids": np.array([e.type_ids for e in enc], dtype=np.int64),
                }
                logits = self.session.run(None, {k: v for k, v in feed.items() if k in self.inputs})[0]
            logits = np.asarray(logits, dtype=np.float32)
            if logits.ndim == 2 and logits.shape[1] == 2:
                scores = logits[:, 1] - logits[:, 0]
            else:
                scores = logits.reshape(len(batch), -1)[:, 0]
            out.extend(float(s) for s in scores)
        return out
