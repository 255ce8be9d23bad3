"""Training the section-kind model from zoo-shaped documents: labels from line roles, one model per fold."""

from __future__ import annotations

import json
import pickle

from cvrag_desktop.evaluation.section_training import (
    KindsExtractor,
    LearnedTrainer,
    block_kind,
    document_sequence,
    family_sequences,
)
from cvrag_desktop.evaluation.zooscore.run import ZooFamily
from cvrag_desktop.ingestion.read.extract import extract_document
from tests.support.minipdf import write_pdf

ROLES = {"Staff Nurse, Riverside Hospital": "title", "03/2019 – 08/2023": "dates", "Care Assistant, Elm House": "title",
         "01/2016 – 02/2019": "dates", "BSc Nursing": "degree", "University of Eastbrook": "institution",
         "2012 – 2015": "dates", "Wound care": "skill", "Triage": "skill"}


def _zoo_doc(folder, stem: str, history_heading: str) -> tuple:
    """A PDF, its truth file and its line roles as the zoo writes them (roles keyed by the line's text)."""
    rows = [("Imogen Fairweather", 20, True), (history_heading, 12, True), ("Staff Nurse, Riverside Hospital", 10, True),
            ("03/2019 – 08/2023", 10, False), ("Care Assistant, Elm House", 10, True), ("01/2016 – 02/2019", 10, False),
            ("Education", 12, True), ("BSc Nursing", 10, True), ("University of Eastbrook", 10, False),
            ("2012 – 2015", 10, False), ("Skills", 12, True), ("Wound care", 10, False), ("Triage", 10, False)]
    y, items = 40, []
    for text, size, bold in rows:
        items.append((50, y, text, size, bold))
        y += size + 8
    pdf = write_pdf(folder / f"{stem}.pdf", [items])
    doc = extract_document(pdf)
    roles = [{"i": i, "text": ln.text, "role": ROLES.get(ln.text, "heading" if ln.size >= 12 and i else "name" if
              i == 0 else "body")} for i, ln in enumerate(doc.lines)]
    (folder / f"{stem}.roles.jsonl").write_text("".join(json.dumps(r) + "\n" for r in roles), encoding="utf-8")
    truth = folder / f"{stem}.json"
    truth.write_text("{}", encoding="utf-8")
    return pdf, truth


def test_block_kind_from_line_roles():
    assert block_kind(["title", "employer", "dates", "body", "body"]) == "experience"
    assert block_kind(["degree", "institution", "dates"]) == "education"
    assert block_kind(["skill", "skill", "body"]) == "skills"
    assert block_kind(["language", "language"]) == "languages"
    assert block_kind(["body", "body", "contact"]) == "other"
    assert block_kind([]) == "other"


def test_document_sequence_labels_the_blocks_the_product_reads(tmp_path):
    pdf, truth = _zoo_doc(tmp_path, "a", "Work")
    feats, kinds, renamable = document_sequence(pdf, truth.with_name("a.roles.jsonl"))
    assert kinds[1:] == ["experience", "education", "skills"]
    assert renamable[1:] == [True, False, False]  # "Work" is not a heading the lexicon knows
    assert len(feats) == len(kinds)


def test_document_sequence_refuses_roles_of_other_lines(tmp_path):
    pdf, truth = _zoo_doc(tmp_path, "a", "Work")
    roles = truth.with_name("a.roles.jsonl")
    rows = [json.loads(r) for r in roles.read_text().splitlines()]
    rows[2]["text"] = "a line the reader no longer gives"
    roles.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert document_sequence(pdf, roles) is None


def test_learned_trainer_trains_per_fold_and_reads_with_it(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    fams = []
    for n, heading in enumerate(["Experience", "Employment", "Work History"]):
        truths = [_zoo_doc(docs, f"f{n}-{k}", heading)[1] for k in range(2)]
        fams.append(ZooFamily(f"fam{n}", "factory", False, tuple(truths)))
    trainer = LearnedTrainer(tmp_path / "models", tmp_path / "cache")
    extractor = trainer(fams[:2])
    assert isinstance(extractor, KindsExtractor)
    assert pickle.loads(pickle.dumps(extractor)) == extractor  # worker processes get it by pickling
    assert trainer(list(reversed(fams[:2]))) == extractor  # one model per set of families
    assert trainer(fams[1:]) != extractor
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == ["fam0.lines.pkl", "fam1.lines.pkl", "fam2.lines.pkl"]
    assert len(family_sequences(fams[0], tmp_path / "cache")) == 2
    pdf, _ = _zoo_doc(tmp_path, "unseen", "Where I worked")
    cv = extractor(pdf, None)
    assert [e.title for e in cv.experiences] == ["Staff Nurse", "Care Assistant"]


def test_the_lines_cache_is_read_again_when_the_zoo_changed_or_the_cache_is_damaged(tmp_path, monkeypatch):
    from cvrag_desktop.evaluation import section_training

    docs = tmp_path / "docs"
    docs.mkdir()
    truths = tuple(_zoo_doc(docs, f"d{k}", "Experience")[1] for k in range(2))
    fam = ZooFamily("fam", "factory", False, truths)
    cache = tmp_path / "cache"
    reads = []
    real = section_training.read_document
    monkeypatch.setattr(section_training, "read_document", lambda pdf, roles: reads.append(pdf) or real(pdf, roles))
    family_sequences(fam, cache)
    family_sequences(fam, cache)
    assert len(reads) == 2  # read once, then from the cache
    pdf = truths[0].with_suffix(".pdf")
    pdf.write_bytes(pdf.read_bytes() + b"\n% rebuilt\n")  # the zoo was rebuilt
    family_sequences(fam, cache)
    assert len(reads) == 4
    (cache / "fam.lines.pkl").write_bytes(b"\x80\x04truncated")
    assert len(family_sequences(fam, cache)) == 2
    assert len(reads) == 6
