"""One file's indexing is bounded: a document keeps at most MAX_CHUNKS chunks, and says so (issue 35, item 12)."""

from __future__ import annotations

from cvrag_desktop.domain import Chunk
from cvrag_desktop.ingestion.chunking import cap_chunks


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
