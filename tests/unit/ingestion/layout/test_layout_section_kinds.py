"""What a section under a heading the lexicon does not know holds, decided by a trained model from its content."""

from __future__ import annotations

from pathlib import Path

import pycrfsuite

from cvrag_desktop.ingestion.layout.reading_order import TextLine
from cvrag_desktop.ingestion.layout.section_kinds import (
    EDUCATION,
    EXPERIENCE,
    OTHER,
    SKILLS,
    SectionKindModel,
    block_features,
    bundled_model,
)
from cvrag_desktop.ingestion.layout.sections import find_sections
from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extracted import ExtractedDoc

ROLES = [("Staff Nurse", "Riverside General Hospital", "03/2019 – 08/2023"),
         ("Ward Assistant", "Hillcrest Care Home", "01/2016 – 02/2019"),
         ("Sales Associate", "Northgate Stores Ltd", "06/2013 – 12/2015")]


def _doc(history_heading: str, *, roles: int = 2, seed: int = 0) -> ExtractedDoc:
    """A one-page CV: a name, a history under ``history_heading``, an education, skills (bold 12 pt headings)."""
    rows: list[tuple[str, float, bool]] = [("Imogen Fairweather", 20.0, True), ("Registered Nurse", 11.0, False),
                                          (history_heading, 12.0, True)]
    for title, firm, period in ROLES[seed % 2: seed % 2 + roles]:
        rows += [(f"{title}, {firm}", 10.0, True), (period, 10.0, False),
                 ("• Cared for patients on a busy surgical ward.", 10.0, False)]
    rows += [("Education", 12.0, True), ("BSc Nursing", 10.0, True), ("University of Eastbrook", 10.0, False),
             ("2012 – 2015", 10.0, False), ("Skills", 12.0, True), ("Wound care", 10.0, False),
             ("Patient assessment", 10.0, False), ("Medication administration", 10.0, False)]
    lines, y = [], 40.0
    for text, size, bold in rows:
        lines.append(TextLine(text=text, page=0, bbox=(50, y, 50 + 5 * len(text), y + size), size=size, bold=bold))
        y += size + 6
    return ExtractedDoc(lines=lines, page_count=1, method="pymupdf", page_sizes=[(595.0, 842.0)])


def _train(path: Path) -> SectionKindModel:
    """A model trained on a few such CVs whose history headings are known words (kinds as the zoo labels them)."""
    trainer = pycrfsuite.Trainer(verbose=False)
    for seed, heading in enumerate(["Experience", "Work Experience", "Employment", "Berufserfahrung"] * 3):
        doc = _doc(heading, roles=1 + seed % 3, seed=seed)
        blocks = find_sections(doc)
        kinds = {"experience": EXPERIENCE, "education": EDUCATION, "skills": SKILLS}
        trainer.append(block_features(doc, blocks), [kinds.get(b.section, OTHER) for b in blocks])
    trainer.set_params({"c1": 0.01, "c2": 0.01, "max_iterations": 100})
    trainer.train(str(path))
    return SectionKindModel(path)


def test_unknown_heading_over_a_history_becomes_experience(tmp_path):
    model = _train(tmp_path / "kinds.crfsuite")
    doc = _doc("Where I worked")
    blocks = find_sections(doc)
    assert next(b.section for b in blocks if b.heading is not None) == "other"  # the lexicon does not know it
    renamed = model.rename(doc, blocks)
    assert [b.section for b in renamed if b.heading is not None] == ["experience", "education", "skills"]
    assert renamed[1].lines == blocks[1].lines  # the same lines, only the kind changes


def test_the_model_reads_roles_the_rules_alone_miss(tmp_path):
    model = _train(tmp_path / "kinds.crfsuite")
    doc = _doc("Where I worked")
    alone, _ = normalize_document(doc, kinds=None)
    learned, _ = normalize_document(doc, kinds=model)
    assert alone.experiences == []
    assert [(e.title, e.company) for e in learned.experiences] == [
        ("Staff Nurse", "Riverside General Hospital"), ("Ward Assistant", "Hillcrest Care Home")]


def test_a_named_section_keeps_its_name(tmp_path):
    model = _train(tmp_path / "kinds.crfsuite")
    doc = _doc("Experience")
    blocks = find_sections(doc)
    assert [b.section for b in model.rename(doc, blocks)] == [b.section for b in blocks]


def test_features_hold_no_words_of_the_document():
    doc = _doc("Where I worked")
    names = {k for f in block_features(doc, find_sections(doc)) for k in f}
    text = " ".join(ln.text for ln in doc.lines).lower()
    for word in ("riverside", "hospital", "nurse", "worked", "imogen", "eastbrook"):
        assert word in text and not any(word in n.lower() for n in names)


def test_an_unsure_model_leaves_the_block_alone(tmp_path):
    model = _train(tmp_path / "kinds.crfsuite")
    model.threshold = 1.01  # nothing is ever that sure
    doc = _doc("Where I worked")
    assert [b.section for b in model.rename(doc, find_sections(doc))] == [b.section for b in find_sections(doc)]


def test_the_shipped_model_reads_a_history_under_work():
    assert bundled_model() is not None, "resources/models/section_kinds.crfsuite is missing"
    doc = _doc("Work", roles=3)  # (a two-role history of this toy CV sits at p ~0.6, the threshold: docs/zoo.md)
    cv, _ = normalize_document(doc)
    assert [e.company for e in cv.experiences] == ["Riverside General Hospital", "Hillcrest Care Home",
                                                   "Northgate Stores Ltd"]


def test_beside_a_named_history_an_unknown_dated_block_stays_other(tmp_path):
    model = _train(tmp_path / "kinds.crfsuite")
    doc = _doc("Experience")
    extra = [("Things I did on weekends", 12.0, True), ("Harbour rowing club, captain", 10.0, True),
             ("05/2018 – 09/2020", 10.0, False)]
    y = doc.lines[-1].bbox[3] + 6
    for text, size, bold in extra:
        doc.lines.append(TextLine(text=text, page=0, bbox=(50, y, 50 + 5 * len(text), y + size), size=size, bold=bold))
        y += size + 6
    blocks = find_sections(doc)
    assert blocks[-1].section == "other"
    model.kinds = lambda doc, blocks: [(EXPERIENCE, 1.0)] * len(blocks)  # sure it is a history...
    assert model.rename(doc, blocks)[-1].section == "other"  # ...but the CV has one already


def test_a_damaged_model_file_leaves_the_rules_alone(tmp_path, monkeypatch):
    from cvrag_desktop.ingestion.layout import section_kinds

    (tmp_path / "models").mkdir()
    (tmp_path / "models" / section_kinds.MODEL_FILE).write_bytes(b"not a model")
    monkeypatch.setattr(section_kinds, "resources_dir", lambda: tmp_path)
    section_kinds.bundled_model.cache_clear()
    try:
        assert section_kinds.bundled_model() is None
        cv, _ = normalize_document(_doc("Experience"))  # reads as the rules do, no error
        assert [e.company for e in cv.experiences] == ["Riverside General Hospital", "Hillcrest Care Home"]
    finally:
        section_kinds.bundled_model.cache_clear()
