"""Hand-made documents of invented people, stored the way an import stores them (for people tests)."""

from __future__ import annotations

from pathlib import Path

from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.domain import Chunk, Experience, NormalizedCV


def make_cv(name: str, emails=(), phones=(), roles=(), skills=("Python",)) -> NormalizedCV:
    """A record; ``roles`` are ``(title, company, start, end or None)``, newest first."""
    exps = [Experience(title=t, company=c, start=s, end=e, is_current=e is None) for t, c, s, e in roles]
    return NormalizedCV(name=name, emails=list(emails), phones=list(phones), experiences=exps, skills=list(skills),
                        current_title=exps[0].title if exps else None,
                        current_company=exps[0].company if exps else None)


def one_page_pdf(text: str) -> bytes:
    """A real one-page PDF printing ``text`` (so the preview can render it)."""
    import pymupdf

    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), text)
    data = doc.tobytes()
    doc.close()
    return data


def add_document(catalog: Catalog, cid: str, cv: NormalizedCV, library: Path | None = None) -> Path | None:
    """Store one document (file row, library copy when ``library`` is given, candidate, one chunk)."""
    sha = (cid * 64)[:64]
    stored = None
    if library is not None:
        library.mkdir(parents=True, exist_ok=True)
        stored = library / f"{sha}.pdf"
        stored.write_bytes(one_page_pdf(f"{cv.name} ({cid})"))
    fid = catalog.upsert_file(sha=sha, original_path=f"/cvs/{cid}.pdf", file_name=f"{cid}.pdf", size=1,
                              status="processing", stored_path=str(stored) if stored else None)
    chunk = Chunk(chunk_id=f"{cid}-0", candidate_id=cid, section="contact", ordinal=0, text=cv.name or "", header="")
    catalog.save_candidate(cid, sha, cv, [chunk], fid)
    return stored


ANA_OLD = make_cv("Ana Ruiz", ["ana.ruiz@ruizmail.net"], ["+34 600 111 222"],
                  [("Developer", "Northwind", "2018-01", None)])
ANA_NEW = make_cv("Dr. Ana Ruiz", ["ana.ruiz@ruizmail.net"], ["+34 600 111 222"],
                  [("Lead Developer", "Contoso", "2023-02", None), ("Developer", "Northwind", "2018-01", "2023-01")],
                  skills=("Python", "Go"))
ANA_OTHER = make_cv("Ana Ruiz", ["aruiz.nurse@example.com"], ["+34 699 000 999"],
                    [("Nurse", "City Hospital", "2015-01", None)], skills=("Triage",))
BEN = make_cv("Ben Okafor", ["ben@example.net"], [], [("Analyst", "Fabrikam", "2020-01", None)], skills=("SQL",))
