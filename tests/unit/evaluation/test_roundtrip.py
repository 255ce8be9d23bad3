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
