"""generate_batch: determinism, bad input, stage isolation, cancellation, manifest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cvrag_desktop.errors import InvalidInput
from cvrag_desktop.factory import pipeline
from cvrag_desktop.factory.pipeline import generate_batch


def _truth(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.json"))}


def test_same_seed_gives_identical_ground_truth(tmp_path):
    a = generate_batch(12, 7, tmp_path / "a", locale="mixed")
    b = generate_batch(12, 7, tmp_path / "b", locale="mixed")
    assert a.generated == b.generated and len(a.generated) == 12 and not a.failed
    assert _truth(tmp_path / "a") == _truth(tmp_path / "b")
    for cv_id in a.generated:  # reportlab invariant mode: even the PDFs are identical
        assert (tmp_path / "a" / f"{cv_id}.pdf").read_bytes() == (
            tmp_path / "b" / f"{cv_id}.pdf"
        ).read_bytes()


def test_other_seed_gives_other_people(tmp_path):
    generate_batch(5, 1, tmp_path / "a")
    generate_batch(5, 2, tmp_path / "b")
    names_a = {json.loads(p.read_text())["name"] for p in (tmp_path / "a").glob("cv-*.json")}
    names_b = {json.loads(p.read_text())["name"] for p in (tmp_path / "b").glob("cv-*.json")}
    assert names_a.isdisjoint(names_b)


def test_outputs_and_manifest(tmp_path):
    report = generate_batch(6, 3, tmp_path, layout="classic,table", with_image=True)
    assert report.manifest and Path(report.manifest).exists()
    manifest = json.loads(Path(report.manifest).read_text())
    assert [e["cv_id"] for e in manifest["cvs"]] == report.generated
    assert {e["layout"] for e in manifest["cvs"]} == {"classic", "table"}
    truth = json.loads((tmp_path / f"{report.generated[0]}.json").read_text())
    for key in (
        "name",
        "emails",
        "current_title",
        "current_company",
        "experiences",
        "education",
        "skills",
        "layout",
        "locale",
        "profile",
        "seed",
        "cv_id",
    ):
        assert key in truth
    assert not list(tmp_path.glob(".*.tmp"))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"count": 0}, "count"),
        ({"count": -3}, "count"),
        ({"count": True}, "count"),
        ({"locale": "xx_XX"}, "locale"),
        ({"layout": "fancy"}, "layout"),
        ({"layout": "classic,fancy"}, "layout"),
        ({"font": "comic"}, "font"),
        ({"seed": "abc"}, "seed"),
    ],
)
def test_bad_input_raises_before_writing(tmp_path, kwargs, message):
    out = tmp_path / "out"
    args = {"count": 3, "seed": 1, "out_dir": out} | kwargs
    with pytest.raises(InvalidInput, match=message):
        generate_batch(**args)
    assert not out.exists()


def test_unwritable_output_folder(tmp_path):
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    with pytest.raises(InvalidInput, match="file"):
        generate_batch(2, 1, blocker)
    with pytest.raises(InvalidInput, match="cannot write"):
        generate_batch(2, 1, blocker / "sub")


def test_failed_render_keeps_ground_truth(tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("printer on fire")

    monkeypatch.setattr(pipeline, "render_pdf", broken)
    report = generate_batch(3, 5, tmp_path)
    assert report.generated == []
    assert [f["stage"] for f in report.failed] == ["render"] * 3
    assert "printer on fire" in report.failed[0]["error"]
    for f in report.failed:
        truth = json.loads((tmp_path / f"{f['cv_id']}.json").read_text())
        assert truth["cv_id"] == f["cv_id"] and truth["experiences"]
        assert not (tmp_path / f"{f['cv_id']}.pdf").exists()
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert {e["status"] for e in manifest["cvs"]} == {"render_failed"}


def test_failed_image_still_renders(tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise OSError("no pixels")

    monkeypatch.setattr(pipeline, "make_avatar", broken)
    report = generate_batch(2, 5, tmp_path, with_image=True)
    assert len(report.generated) == 2
    assert [f["stage"] for f in report.failed] == ["image", "image"]


def test_failed_build_is_isolated(tmp_path, monkeypatch):
    real = pipeline.build_draft

    def flaky(spec, done):
        if spec.index == 1:
            raise ValueError("bad profile")
        return real(spec, done)

    monkeypatch.setattr(pipeline, "build_draft", flaky)
    report = generate_batch(3, 5, tmp_path, hard_cases=False)
    assert len(report.generated) == 2
    assert report.failed == [{"cv_id": "cv-5-00002", "stage": "build", "error": "ValueError: bad profile"}]


def test_progress_and_cancel(tmp_path):
    seen: list[tuple[int, int, str]] = []
    report = generate_batch(
        5, 9, tmp_path, progress=lambda d, t, n: seen.append((d, t, n)), should_cancel=lambda: len(seen) >= 2
    )
    assert report.cancelled and len(report.generated) == 2
    assert seen[0] == (1, 5, "cv-9-00001")
    assert json.loads((tmp_path / "manifest.json").read_text())["cancelled"] is True


def test_use_llm_without_model_falls_back(tmp_path):
    report = generate_batch(2, 4, tmp_path, use_llm=True)  # conftest points the LLM at a dead port
    assert len(report.generated) == 2
    assert report.notes and report.notes[0]["stage"] == "enrich"
    truth = json.loads((tmp_path / f"{report.generated[0]}.json").read_text())
    assert truth["prose_source"] == "template"


def test_every_printed_letter_reaches_the_text_layer(tmp_path):
    """A CV whose headings are in Polish while its people are English (a LinkedIn export with a
    Polish interface) takes a font with the Polish letters: no "Do wiadczenie" in the PDF's text."""
    import pymupdf

    from cvrag_desktop.factory.pipeline import font_for_text
    from cvrag_desktop.factory.render.base.fonts import FONTS, covers

    assert not covers("vera", "Doświadczenie") and covers("vera", "Expérience – Köln")
    assert font_for_text("vera", FONTS, "Doświadczenie") in ("dejavu-serif", "dejavu-condensed")
    assert font_for_text("vera", ("vera",), "Doświadczenie") == "vera"  # no covering family allowed: kept
    report = generate_batch(60, 2718, tmp_path, locale="mixed", layout="linkedin,labelled")
    missing, checked = [], 0
    for cv_id in report.generated:
        truth = json.loads((tmp_path / f"{cv_id}.json").read_text(encoding="utf-8"))
        if truth.get("heading_language") != "pl":
            continue
        checked += 1
        with pymupdf.open(tmp_path / f"{cv_id}.pdf") as doc:
            text = "".join(page.get_text() for page in doc)
        if not any(c in text for c in "ąęśćńźż"):
            missing.append(cv_id)
    assert checked and not missing
