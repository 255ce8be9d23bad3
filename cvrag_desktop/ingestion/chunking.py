"""Section chunks for retrieval.

One chunk per canonical section; a long experience section becomes one chunk per
role (the parent section is kept as its own chunk for small-to-big answers). Each
chunk stays under ~200 tokens because the embedding model truncates at 256. A
contextual header (name, current title, top skills, latest degree) is stored apart
and prepended only for embedding/BM25; the raw text is what users see.

A document keeps at most :data:`MAX_CHUNKS` chunks (:func:`cap_chunks`): every chunk is
embedded in the app's process, so one file's indexing time is bounded by it (a 50,000-line
Word file gave 698 chunks and ~50 s of indexing). A CV has a few dozen.
"""

from __future__ import annotations

import hashlib
import re

from cvrag_desktop.domain import Chunk, NormalizedCV
from cvrag_desktop.ingestion.fields.entries import segment_entries
from cvrag_desktop.ingestion.layout.sections import SectionBlock
from cvrag_desktop.ingestion.read.extracted import ExtractedDoc

MAX_TOKENS = 200
MAX_CHUNKS = 100  # per document: ~20,000 tokens; the shared corpus's CVs give 2-28 (median 8)


def approx_tokens(text: str) -> int:
    """Rough WordPiece token count (words plus punctuation), conservative for MiniLM."""
    return len(re.findall(r"\w+|[^\w\s]", text))


def context_header(cv: NormalizedCV) -> str:
    """The banner prepended to each chunk for retrieval (never displayed)."""
    parts = [cv.name or "Unknown candidate"]
    if cv.current_title:
        parts.append(cv.current_title + (f" at {cv.current_company}" if cv.current_company else ""))
    if cv.skills:
        parts.append("Skills: " + ", ".join(cv.skills[:8]))
    if cv.degrees:
        parts.append("Education: " + cv.degrees[0])
    if cv.languages:  # canonical English names: "German" finds a CV that says "Deutsch"
        parts.append("Languages: " + ", ".join(cv.languages[:6]))
    return " | ".join(parts)


def _split_to_budget(line_ids: list[int], doc: ExtractedDoc, budget: int) -> list[list[int]]:
    groups: list[list[int]] = [[]]
    used = 0
    for i in line_ids:
        n = approx_tokens(doc.lines[i].text)
        if groups[-1] and used + n > budget:
            groups.append([])
            used = 0
        groups[-1].append(i)
        used += n
    return [g for g in groups if g]


def _bbox(doc: ExtractedDoc, ids: list[int]) -> tuple[int | None, tuple[float, float, float, float] | None]:
    first_page = doc.lines[ids[0]].page
    same = [doc.lines[i] for i in ids if doc.lines[i].page == first_page]
    box = (
        min(ln.x0 for ln in same),
        min(ln.y0 for ln in same),
        max(ln.x1 for ln in same),
        max(ln.y1 for ln in same),
    )
    return first_page, tuple(round(v, 1) for v in box)


def chunk_id(candidate_id: str, section: str, ordinal: int) -> str:
    """A stable id for a chunk (same file → same ids)."""
    return hashlib.sha1(f"{candidate_id}:{section}:{ordinal}".encode()).hexdigest()[:16]


def build_chunks(candidate_id: str, cv: NormalizedCV, doc: ExtractedDoc, blocks: list[SectionBlock]) -> list[Chunk]:
    """Chunks for one CV, in document order, each with page + bbox and the shared header."""
    header = context_header(cv)
    merged: dict[str, list[int]] = {}
    titles: dict[str, int | None] = {}
    for b in blocks:
        ids = ([b.heading] if b.heading is not None else []) + b.lines
        if ids:
            merged.setdefault(b.section, []).extend(ids)
            titles.setdefault(b.section, b.heading)
    chunks: list[Chunk] = []
    ordinal = 0
    for section, ids in merged.items():
        ids = sorted(set(ids))
        text_tokens = sum(approx_tokens(doc.lines[i].text) for i in ids)
        groups: list[list[int]]
        parent_id = None
        if text_tokens <= MAX_TOKENS:
            groups = [ids]
        else:
            if section == "experience":
                body = [i for i in ids if i != titles.get(section)]
                roles = segment_entries(doc.lines, body)
                groups = []
                for r in roles:
                    role_ids = sorted(r.header + r.body)
                    groups.extend(_split_to_budget(role_ids, doc, MAX_TOKENS))
            else:
                groups = _split_to_budget(ids, doc, MAX_TOKENS)
            parent_id = chunk_id(candidate_id, section, -1)
        for g in groups:
            if not g:
                continue
            page, box = _bbox(doc, g)
            chunks.append(
                Chunk(
                    chunk_id=chunk_id(candidate_id, section, ordinal),
                    candidate_id=candidate_id,
                    section=section,
                    ordinal=ordinal,
                    text="\n".join(doc.lines[i].text for i in g),
                    header=header,
                    page=page,
                    bbox=box,
                    parent_id=parent_id,
                )
            )
            ordinal += 1
    return chunks


def cap_chunks(chunks: list[Chunk], limit: int = MAX_CHUNKS) -> tuple[list[Chunk], int]:
    """At most ``limit`` chunks, and how many were left out.

    Each section keeps its first chunk (a huge experience section does not push the skills or
    the education out of the index), then the rest fill the room in document order.
    """
    if len(chunks) <= limit:
        return chunks, 0
    keep: set[int] = set()
    seen: set[str] = set()
    for k, c in enumerate(chunks):
        if c.section not in seen and len(keep) < limit:
            seen.add(c.section)
            keep.add(k)
    for k in range(len(chunks)):
        if len(keep) >= limit:
            break
        keep.add(k)
    return [c for k, c in enumerate(chunks) if k in keep], len(chunks) - len(keep)
