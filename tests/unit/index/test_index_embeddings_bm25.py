"""The stored punctuation table that spares every ``cvrag search`` fastembed's Unicode scan."""

from __future__ import annotations

from fastembed.common.utils import get_all_punctuation

from cvrag_desktop.index.embeddings import Embedder, _punctuation, punctuation_table_path
from cvrag_desktop.text.vocab.resources import resources_dir

BM25_DIR = str(resources_dir() / "models" / "bm25")


def test_the_stored_table_is_fastembeds_own_set_for_this_unicode_version():
    path = punctuation_table_path(BM25_DIR)
    assert path.is_file(), f"regenerate {path.name} (see index/embeddings.compute_punctuation) for this Python"
    assert set(_punctuation(BM25_DIR)) == get_all_punctuation()


def test_sparse_vectors_still_drop_punctuation_that_is_a_word_character():
    # "_" and "‿" are connector punctuation yet \w: only the punctuation set keeps them out of the terms
    vectors = Embedder().sparse_arrays(["Python _ Kafka ‿ Go", "Python Kafka Go"])
    (terms_a, _), (terms_b, _) = vectors
    assert sorted(terms_a.tolist()) == sorted(terms_b.tolist())
    assert len(terms_a) == 3
