"""One file's indexing is bounded: a document keeps at most MAX_CHUNKS chunks, and says so (issue 35, item 12)."""

from __future__ import annotations

import time

from cvrag_desktop.config import IngestLimits
from cvrag_desktop.domain import Chunk
from cvrag_desktop.ingestion.chunking import MAX_CHUNKS, cap_chunks
from cvrag_desktop.ingestion.parse_job import parse_file, warm_worker
from tests.support.huge_docx import huge_docx


def _chunk(section: str, ordinal: int) -> Chunk:
    return Chunk(chunk_id=f"c{ordinal}", candidate_id="cand", section=section, ordinal=ordinal, text=f"t{ordinal}",
                 header="h")


def test_a_cv_sized_list_is_kept_whole():
    chunks = [_chunk("experience", k) for k in range(12)]
    assert cap_chunks(chunks) == (chunks, 0)


def test_past_the_cap_every_section_keeps_its_first_chunk_in_document_order():
    chunks = [_chunk("experience", k) for k in range(500)] + [_chunk("skills", 500), _chunk("education", 501)]
    kept, left_out = cap_chunks(chunks, limit=50)
    assert len(kept) == 50 and left_out == 452
    assert [c.section for c in kept[-2:]] == ["skills", "education"]
    assert [c.ordinal for c in kept] == sorted(c.ordinal for c in kept)


def test_a_50000_paragraph_word_file_imports_truncated_with_a_warning_in_bounded_time(tmp_path):
    path = huge_docx(tmp_path / "huge.docx")
    warm_worker()
    started = time.perf_counter()
    result = parse_file(str(path), "0123456789abcdef", IngestLimits().model_dump(), False, None)
    took = time.perf_counter() - started
    assert result["ok"], result.get("error")
    assert 0 < len(result["chunks"]) <= MAX_CHUNKS
    warning = " ".join(result["warnings"])
    assert "only the first 5,000 lines were read" in warning and "passages are searchable" in warning
    assert took < 45, f"{took:.1f} s"  # was more than the 60 s limit (killed, too_large); ~9 s here
