"""The zoo's deterministic content plan: seed -> the factory drafts of each family, and their truth.

Each family draws its own batches from the factory (``plan_batch`` + ``build_draft``), in blocks of
:data:`BLOCK` documents under seeds derived from the zoo seed, the family name and the block, cycling
the factory's locales and profiles, with the factory's hard cases on. The same seed gives the same
drafts on any machine and any day (the factory's fixed ``as_of``), whatever other families are built
and however many documents are asked for: document ``i`` of a family depends on nothing else.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from cvrag_desktop.evaluation.zoo.families import CONTENT, FACTORY, RENDERCV, Family
from cvrag_desktop.evaluation.zoo.rendercv import not_printed
from cvrag_desktop.factory.hardcases import HardCaseConfig
from cvrag_desktop.factory.model import CVDraft
from cvrag_desktop.factory.pipeline import (
    DEFAULT_AS_OF,
    MIXED_LOCALES,
    build_draft,
    font_for_text,
    plan_batch,
)
from cvrag_desktop.factory.render import FONTS
from cvrag_desktop.factory.render.base.common import printed_cv

TRUTH_FORMAT = 1
BLOCK = 64  # documents planned together by the factory (its pairs of CVs stay inside a block)


@dataclass
class ZooDoc:
    """One planned document: its family, index, id and the factory draft it prints."""

    family: Family
    index: int
    doc_id: str
    draft: CVDraft
    font: str


def family_seed(seed: int, family: str, block: int = 0) -> int:
    """The factory batch seed of one block of a family (stable across runs and machines)."""
    return zlib.crc32(f"zoo:{seed}:{family}:{block}".encode()) & 0x7FFFFFFF


def doc_id(seed: int, family: str, index: int) -> str:
    """The id (and file stem) of a zoo document: cached by seed, family and index."""
    return f"{family}-s{seed}-{index + 1:04d}"


def plan_family(fam: Family, seed: int, count: int) -> list[ZooDoc]:
    """The first ``count`` documents of ``fam`` for ``seed``.

    The factory plans a batch as a whole (its hard cases pair CVs of one batch), so the zoo plans
    fixed blocks of :data:`BLOCK` documents: document ``i`` is the same whatever ``count`` is asked."""
    layout = fam.template if fam.engine == FACTORY else "classic"
    content = CONTENT.get(fam.name)  # the families added with issue 36's content draw their own
    locales = (content.locales if content else None) or MIXED_LOCALES
    config = HardCaseConfig(anonymous=content.anonymous, placeholders=content.placeholders) if content else None
    docs = []
    for block in range((count + BLOCK - 1) // BLOCK):
        specs = plan_batch(BLOCK, family_seed(seed, fam.name, block), locales=locales, layouts=(layout,),
                           fonts=FONTS, as_of=DEFAULT_AS_OF, hard_cases=True, hard_config=config)
        wanted = min(BLOCK, count - block * BLOCK)
        needed = max([wanted - 1, *(s.update_of or 0 for s in specs[:wanted]),
                      *(s.name_like or 0 for s in specs[:wanted])])
        done: dict[int, CVDraft] = {}
        for spec in specs[: needed + 1]:  # drafts are built in order: a pair refers back
            draft = build_draft(spec, done)
            done[spec.index] = draft
            if spec.index >= wanted:
                continue
            index = block * BLOCK + spec.index
            ident = doc_id(seed, fam.name, index)
            draft = draft.model_copy(update={"spec": spec.model_copy(update={"cv_id": ident})})
            text = draft.cv.model_dump_json() + "".join(draft.hints.headings.values())
            docs.append(ZooDoc(fam, index, ident, draft, font_for_text(spec.font, FONTS, text)))
    return docs


def printed_record(draft: CVDraft) -> dict:
    """What the factory would print for this draft (its wording and order): the values to align."""
    pc = printed_cv(draft, "vera")
    left = set(pc.extra.get("placeholders", "").splitlines())  # template text: printed, never a value

    def real(text: str) -> str:
        return "" if text in left else text

    record = {
        "name": real(pc.name),
        "headline": real(pc.headline),
        "contact": [{"label": k, "value": v} for k, v in pc.contact if v not in left],
        "summary": pc.summary,
        "roles": [{"title": r.title, "company": r.company, "location": real(r.location), "period": r.period,
                   "bullets": [b for b in r.bullets if b not in left]} for r in pc.roles],
        "education": [{"degree": e.degree, "institution": e.institution, "period": e.period}
                      for e in pc.education],
        "skills": list(pc.skills),
        "languages": list(pc.languages),
        "certifications": list(pc.certifications),
        "headings": dict(pc.headings),
        "newest_first": draft.hints.newest_first,
    }
    if left:  # only documents with the placeholders hard case (never one of the first 45 families)
        record["placeholders"] = sorted(left)
    return record


def truth_record(doc: ZooDoc, seed: int) -> dict:
    """The document's field truth: the factory's ground truth (as ``cvrag generate`` writes it)
    with the zoo's own record (family, engine, template, seed and the printed values) under ``zoo``."""
    data = doc.draft.ground_truth()
    data["layout"] = doc.family.name
    data["font"] = doc.font
    data["zoo"] = {
        "format": TRUTH_FORMAT,
        "family": doc.family.name,
        "engine": doc.family.engine,
        "template": doc.family.template,
        "version": doc.family.version,
        "held_out": doc.family.held_out,
        "zoo_seed": seed,
        "index": doc.index,
        "printed": printed_record(doc.draft),
        "not_printed": not_printed(doc.draft) if doc.family.engine == RENDERCV else [],
    }
    return data
