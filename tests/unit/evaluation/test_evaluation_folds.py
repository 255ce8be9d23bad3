"""Leave-one-source-out evaluation and the per-fold line-role model, on generated CVs (no real data)."""

from __future__ import annotations

import json

from cvrag_desktop.evaluation import fold_training
from cvrag_desktop.evaluation.folds import evaluate_folds, load_labelled, rules_normalizer, source_family
from cvrag_desktop.factory.pipeline import generate_batch
from cvrag_desktop.ingestion.layout.line_roles import LineRoleModel
from cvrag_desktop.ingestion.read.extract import extract_document


def test_source_family_groups_template_forks_and_linkedin_exports():
    assert source_family({"source_repo": "a/TwentySecondsCurriculumVitae-LaTex"}) == \
        source_family({"source_repo": "b/TwentySecondsCurriculumVitae-LaTex"})
    assert source_family({"source_repo": "x/parser", "how_produced": "LinkedIn profile 'Save to PDF'"}) == \
        "linkedin-export"
    assert source_family({"source_repo": "ann/cv"}) != source_family({"source_repo": "bob/cv"})


def _labelled_folder(tmp_path, count: int, seed: int):
    gen = tmp_path / "gen"
    generate_batch(count, seed, gen, locale="mixed", layout="mixed", use_llm=False)
    folder = tmp_path / "set"
    (folder / "pdf").mkdir(parents=True)
    labels, rows = [], ["file\tsource_repo"]
    for n, truth in enumerate(sorted(p for p in gen.glob("cv-*.json"))):
        t = json.loads(truth.read_text(encoding="utf-8"))
        pdf = folder / "pdf" / truth.with_suffix(".pdf").name
        pdf.write_bytes(truth.with_suffix(".pdf").read_bytes())
        labels.append({"file": pdf.name, "name": t["name"], "emails": t["emails"],
                       "current_title": t.get("current_title"), "companies": [], "degrees": []})
        rows.append(f"{pdf.name}\towner/family{n % 3}")
    (folder / "labels.json").write_text(json.dumps(labels), encoding="utf-8")
    (folder / "MANIFEST.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return folder


def test_folds_score_each_source_held_out(tmp_path):
    docs = load_labelled([_labelled_folder(tmp_path, 6, 5)])
    report = evaluate_folds(docs, rules_normalizer)
    assert sorted(report.sizes.values()) == [2, 2, 2]
    total = report.overall().counts["name"]
    assert total.tp + total.fn == 6 and total.recall == 1.0
    assert "OVERALL" in report.table()


def test_line_role_model_trained_on_other_documents_finds_a_name(tmp_path):
    seqs = list(fold_training.factory_sequences(count=24, seed=9))
    assert any("name" in labels for _, labels in seqs)
    model = LineRoleModel(fold_training.train(seqs, tmp_path / "roles.crfsuite"), backoff=False)
    fresh = tmp_path / "fresh"
    generate_batch(3, 77, fresh, locale="en_US", layout="classic", use_llm=False)
    for truth in sorted(fresh.glob("cv-*.json")):
        hit = model.find_name(extract_document(truth.with_suffix(".pdf")))
        assert hit is not None and hit.value == json.loads(truth.read_text(encoding="utf-8"))["name"]
