"""The optional cross-encoder: a tiny stand-in ONNX model built here (no torch)."""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402
from tokenizers import Tokenizer, models, pre_tokenizers  # noqa: E402

from cvrag_desktop.config import app_paths  # noqa: E402
from cvrag_desktop.index.rerank import find_reranker  # noqa: E402

VOCAB = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "nurse": 4, "kafka": 5, "team": 6}


def build_standin(folder, boost_token: str = "nurse") -> None:
    """logit = number of times ``boost_token`` occurs in the pair (query + passage)."""
    folder.mkdir(parents=True)
    tok = Tokenizer(models.WordLevel(VOCAB, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.save(str(folder / "tokenizer.json"))
    target = helper.make_tensor("target", TensorProto.INT64, [], [VOCAB[boost_token]])
    nodes = [
        helper.make_node("Equal", ["input_ids", "target"], ["eq"]),
        helper.make_node("Cast", ["eq"], ["eqf"], to=TensorProto.FLOAT),
        helper.make_node("ReduceSum", ["eqf", "axes"], ["logits"], keepdims=1),
    ]
    axes = helper.make_tensor("axes", TensorProto.INT64, [1], [1])
    graph = helper.make_graph(
        nodes, "standin",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["b", "s"]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["b", "s"])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["b", 1])],
        initializer=[target, axes],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(folder / "model.onnx"))


def test_absent_reranker_is_reported():
    info, model = find_reranker(app_paths().models_dir)
    assert model is None and not info.available and "skipped" in info.reason


def test_torch_only_folder_is_reported(tmp_path):
    (tmp_path / "cross-encoder").mkdir()
    (tmp_path / "cross-encoder" / "model.safetensors").write_bytes(b"x")
    info, model = find_reranker(tmp_path)
    assert model is None and "ONNX" in info.reason


def test_standin_scores_pairs():
    build_standin(app_paths().models_dir / "reranker")
    info, model = find_reranker(app_paths().models_dir)
    assert info.available and model is not None
    scores = model.score("nurse", ["kafka team", "nurse nurse", "nurse"])
    assert np.argmax(scores) == 1 and scores[0] < scores[2]


def test_service_reranks_with_standin(catalog):
    from cvrag_desktop.config import Settings
    from cvrag_desktop.index.service import SearchService

    build_standin(app_paths().models_dir / "reranker", boost_token="nurse")
    svc = SearchService(catalog, app_paths(), Settings())
    try:
        svc.rebuild()
        assert svc.status()["reranker"]["available"]
        top = svc.search("kafka nurse", k=1)[0]
        assert "nurse" in top["text"].lower()
        plain = svc.search("kafka nurse", k=3, rerank=False)
        assert plain  # rerank can be switched off per query
        filtered = svc.search("kafka nurse", {"languages": ["german"]}, k=2, strategy="filtered")
        assert filtered[0]["candidate_id"] == "cand_dan"
    finally:
        svc.close()
