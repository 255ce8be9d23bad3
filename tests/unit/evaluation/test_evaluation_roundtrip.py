"""Generated CVs survive the round trip through the no-LLM ingestion."""

from __future__ import annotations

from cvrag_desktop.evaluation.roundtrip import evaluate_generated, format_table
from cvrag_desktop.factory.pipeline import generate_batch


def test_round_trip_on_every_layout(tmp_path):
    out = tmp_path / "gen"
    report = generate_batch(30, 5, out, locale="es_ES,en_US,de_DE,fr_FR", layout="mixed")
    assert not report.failed
    result = evaluate_generated(out)
    print(format_table(result))
    per = result["per_layout"]
    assert set(per) >= {"classic", "sidebar", "gutter", "table", "localized", "ALL"}
    overall = per["ALL"]
    for field, (hit, tot) in overall.items():
        floor = 0.95 if field in ("name", "email") else 0.9
        assert tot == 0 or hit / tot >= floor, (field, hit, tot, format_table(result))


def test_round_trip_of_profile_exports_and_word_cvs_in_the_newer_locales(tmp_path):
    """LinkedIn exports (localized sidebar headings, grouped positions, "less than a year", wrapped degrees)
    and Word-style CVs in Polish, Dutch, Spanish and Italian: no heading becomes a name, and the current
    role, employers and degrees come back."""
    from cvrag_desktop.ingestion.layout.sections import lexicon_section

    out = tmp_path / "gen"
    for n, layout in enumerate(("linkedin", "wordtable", "oneline")):
        report = generate_batch(8, 40 + n, out / layout, locale="pl_PL,nl_NL,es_ES,it_IT", layout=layout)
        assert not report.failed
    for layout in ("linkedin", "wordtable", "oneline"):
        result = evaluate_generated(out / layout)
        overall = result["per_layout"]["ALL"]
        for field in ("name", "current_title", "current_company", "employers", "degrees"):
            hit, tot = overall[field]
            assert tot == 0 or hit / tot >= 0.85, (layout, field, hit, tot, format_table(result))
    from cvrag_desktop.ingestion.normalize import normalize_document
    from cvrag_desktop.ingestion.read.extract import extract_document

    for pdf in sorted((out / "linkedin").glob("*.pdf")):
        cv, _ = normalize_document(extract_document(pdf))
        assert cv.name and not lexicon_section(cv.name), (pdf.name, cv.name)
