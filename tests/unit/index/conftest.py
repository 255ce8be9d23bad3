"""Fixtures for the index tests: a small hand-made catalog (no PDFs) and a search service."""

from __future__ import annotations

import pytest

from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.config import Settings, app_paths
from cvrag_desktop.domain import Chunk, Education, Experience, NormalizedCV
from cvrag_desktop.ingestion.chunking import context_header

PEOPLE = [
    dict(cid="cand_ana", name="Ana Núñez", title="Backend Developer", company="Acme Logistics S.A.", years=7.5,
         skills=["Python", "Kafka", "Go"], languages=["Spanish", "German"], degree="Grado en Ingeniería Informática",
         inst="Universidad de Sevilla", others=["Globex Corp."],
         summary="Backend developer building event streaming pipelines with Kafka."),
    dict(cid="cand_ben", name="Ben Ortiz", title="Frontend Engineer", company="Initech", years=3.2,
         skills=["JavaScript", "React", "C#"], languages=["English"], degree="BSc Computer Science",
         inst="University of Leeds", others=[],
         summary="Frontend engineer who builds accessible React interfaces."),
    dict(cid="cand_cara", name="Cara Lopez", title="Engineering Manager", company="Globex Corp.", years=12.0,
         skills=["Java", "C++", "Leadership"], languages=["Spanish", "English"], degree="Ph.D. in Physics",
         inst="Universidad Complutense de Madrid", others=["Acme Logistics S.A."],
         summary="Led a team of twelve engineers and mentored juniors through promotions."),
    dict(cid="cand_dan", name="Dan Weber", title="Nurse", company="Hospital General", years=4.0,
         skills=["Patient Care"], languages=["German"], degree="Licenciatura en Enfermería",
         inst="Universidad de Granada", others=[],
         summary="Registered nurse in intensive care, night shifts and triage."),
]


def make_cv(p: dict) -> NormalizedCV:
    """The structured record of one fixture person."""
    exps = [Experience(title=p["title"], company=p["company"], start="2020-01", is_current=True,
                       bullets=[p["summary"]])]
    exps += [Experience(title="Engineer", company=o, start="2015-01", end="2019-12") for o in p["others"]]
    return NormalizedCV(
        name=p["name"], emails=[p["cid"] + "@example.com"], summary=p["summary"], experiences=exps,
        education=[Education(degree=p["degree"], institution=p["inst"], end="2012")], skills=p["skills"],
        languages=p["languages"], years_of_experience=p["years"], current_title=p["title"],
        current_company=p["company"], certifications=["AWS Certified"] if p["cid"] == "cand_ana" else [],
    )


def make_chunks(p: dict, cv: NormalizedCV) -> list[Chunk]:
    """Sections as the chunker would cut them; Cara's experience is split into two child chunks."""
    h = context_header(cv)
    cid = p["cid"]
    exp_lines = [f"{e.title} at {e.company}. " + " ".join(e.bullets) for e in cv.experiences]
    chunks = [
        Chunk(chunk_id=f"{cid}-0", candidate_id=cid, section="contact", ordinal=0, header=h, page=0,
              text=f"{p['name']}\n{p['cid']}@example.com"),
        Chunk(chunk_id=f"{cid}-1", candidate_id=cid, section="summary", ordinal=1, header=h, page=0, text=p["summary"]),
        Chunk(chunk_id=f"{cid}-2", candidate_id=cid, section="skills", ordinal=2, header=h, page=0,
              text="Skills: " + ", ".join(p["skills"])),
        Chunk(chunk_id=f"{cid}-3", candidate_id=cid, section="education", ordinal=3, header=h, page=1,
              text=f"{p['degree']}, {p['inst']}"),
        Chunk(chunk_id=f"{cid}-4", candidate_id=cid, section="languages", ordinal=4, header=h, page=1,
              text="Languages: " + ", ".join(p["languages"])),
    ]
    parent = f"{cid}-exp" if len(exp_lines) > 1 else None
    for i, line in enumerate(exp_lines):
        chunks.append(Chunk(chunk_id=f"{cid}-{5 + i}", candidate_id=cid, section="experience", ordinal=5 + i,
                            header=h, page=0, text=line, parent_id=parent))
    return chunks


def add_person(catalog: Catalog, p: dict) -> None:
    """Store one fixture person in the catalog."""
    cv = make_cv(p)
    fid = catalog.upsert_file(sha=p["cid"] + "sha", original_path=f"/cvs/{p['cid']}.pdf", file_name=f"{p['cid']}.pdf",
                              size=1, status="processing")
    catalog.save_candidate(p["cid"], p["cid"] + "sha", cv, make_chunks(p, cv), fid)


@pytest.fixture
def catalog():
    """A catalog holding the four fixture people."""
    paths = app_paths().ensure()
    cat = Catalog(paths.catalog_db)
    for p in PEOPLE:
        add_person(cat, p)
    yield cat
    cat.close()


@pytest.fixture
def service(catalog):
    """A search service over the fixture catalog, index built."""
    from cvrag_desktop.index.service import SearchService

    svc = SearchService(catalog, app_paths(), Settings())
    svc.rebuild()
    yield svc
    svc.close()
