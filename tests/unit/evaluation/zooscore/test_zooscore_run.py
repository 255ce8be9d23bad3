"""The zoo scorer on a tiny zoo made here with the factory: numbers checked by hand, the held-out rule,
the training hook's folds, DOCX-vs-PDF agreement, workers, and ``cvrag eval --zoo``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cvrag_desktop.errors import FileMissing, InvalidInput
from cvrag_desktop.evaluation.roundtrip import load_truth
from cvrag_desktop.evaluation.zooscore.run import load_zoo, rules_trainer, score_zoo, select
from cvrag_desktop.factory.pipeline import generate_batch

OPEN, HELD = "fam-open", "fam-held"


@pytest.fixture(scope="module")
def zoo(tmp_path_factory) -> Path:
    """2 families x 2 documents in the zoo's shape; the open family keeps a DOCX beside each PDF."""
    root = tmp_path_factory.mktemp("zoo")
    gen = root / "gen"
    report = generate_batch(4, 7, gen, locale="en_GB", layout="classic")
    assert not report.failed
    truths = sorted(p for p in gen.glob("*.json") if p.name != "manifest.json")
    for n, truth in enumerate(truths):
        family = OPEN if n < 2 else HELD
        folder = root / "docs" / family
        folder.mkdir(parents=True, exist_ok=True)
        stem = f"{family}-s1-{n % 2:04d}"
        data = json.loads(truth.read_text(encoding="utf-8"))
        data["layout"] = family
        data["zoo"] = {"family": family, "engine": "factory", "held_out": family == HELD, "not_printed": []}
        (folder / f"{stem}.json").write_text(json.dumps(data), encoding="utf-8")
        shutil.copy(truth.with_suffix(".pdf"), folder / f"{stem}.pdf")
        if family == OPEN:
            (folder / f"{stem}.docx").write_bytes(b"")  # read only by the fake extractors below
    (root / "docs" / OPEN / "ignored.resume.json").write_text("{}", encoding="utf-8")
    manifest = {"generator": "test", "format": 1, "seed": 1, "per_family": 2, "documents": 4,
                "held_out": [HELD],
                "families": [{"name": OPEN, "engine": "factory", "held_out": False, "documents": 2},
                             {"name": HELD, "engine": "factory", "held_out": True, "documents": 2}]}
    (root / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return root


def truth_extractor(path: Path, _as_of):
    """A perfect extraction: the document's own truth."""
    return load_truth(path.with_suffix(".json"))[0]


def dropping_extractor(path: Path, _as_of):
    """The truth, less the first employer of the open family's first document (and of its DOCX)."""
    cv = truth_extractor(path, _as_of)
    if path.stem == f"{OPEN}-s1-0000":
        first = cv.experiences[0].company
        cv = cv.model_copy(update={"experiences": [e for e in cv.experiences if e.company != first]})
    return cv


def docx_differs(path: Path, _as_of):
    """Perfect on PDFs; on a DOCX the name is lost."""
    cv = truth_extractor(path, _as_of)
    return cv.model_copy(update={"name": None}) if path.suffix == ".docx" else cv


def test_a_perfect_extraction_scores_1_and_held_out_families_are_left_out_by_default(zoo):
    every = load_zoo(zoo)
    assert [(f.name, f.held_out, len(f.truths)) for f in every] == [(OPEN, False, 2), (HELD, True, 2)]
    report = score_zoo(every, select(every, None, False), train=lambda _fams: truth_extractor)
    assert list(report.families) == [OPEN]
    fam = report.families[OPEN]
    assert fam.docs == 2 and not fam.flagged and fam.misses == {}
    for f in ("name", "title", "employers", "degrees", "email", "skills", "languages"):
        c = fam.counts[f]
        assert c.precision == 1.0 and c.recall == 1.0, f
    assert report.worst() == [OPEN]
    assert "fam-held" not in report.table()


def test_a_removed_truth_value_lowers_recall_as_counted_by_hand(zoo):
    every = load_zoo(zoo)
    truths = [load_truth(p)[0] for p in every[0].truths]
    employers = sum(len({c.lower() for c in t.companies}) for t in truths)  # distinct per document
    first = truths[0].experiences[0].company
    report = score_zoo(every, select(every, [OPEN], False), train=lambda _fams: dropping_extractor)
    c = report.families[OPEN].counts["employers"]
    assert (c.tp, c.fn, c.fp) == (employers - 1, 1, 0)
    assert c.recall == pytest.approx((employers - 1) / employers)
    assert c.precision == 1.0
    assert report.families[OPEN].misses[f"{OPEN}-s1-0000"]["employers"] == {"missed": [first], "invented": []}
    assert report.families[OPEN].counts["name"].recall == 1.0
    if (employers - 1) / employers < 0.8:
        assert report.families[OPEN].flagged


def test_held_out_families_are_scored_on_request_as_their_own_rows(zoo):
    every = load_zoo(zoo)
    with pytest.raises(InvalidInput, match="--include-held-out"):
        select(every, [HELD], False)
    with pytest.raises(InvalidInput, match="no family"):
        select(every, ["nope"], True)
    report = score_zoo(every, select(every, None, True), train=lambda _fams: truth_extractor)
    assert set(report.families) == {OPEN, HELD} and report.families[HELD].held_out
    assert report.worst() == [OPEN]  # the bench is never ranked with the open families
    table = report.table()
    assert table.index("-- held-out families") < table.index(HELD) < table.index("worst families")
    assert report.overall(True)["name"].tp == 2 and report.overall(False)["name"].tp == 2
    assert report.scope == "held-out"


def test_each_family_is_read_by_an_extractor_trained_without_it_and_never_on_held_out_ones(zoo):
    every = load_zoo(zoo)
    seen: list[list[str]] = []

    def train(families):
        seen.append([f.name for f in families])
        return truth_extractor

    score_zoo(every, select(every, None, True), train=train)
    assert seen == [[], [OPEN]]  # the open family without itself; the held-out one on every open family
    assert rules_trainer([]) is rules_trainer(every)  # the rules learn nothing


def test_docx_against_its_pdf_counts_values_both_show_out_of_values_either_shows(zoo):
    every = load_zoo(zoo)
    report = score_zoo(every, select(every, None, False), train=lambda _fams: docx_differs)
    fam = report.families[OPEN]
    assert fam.pairs == 2
    assert fam.agreement.per_field["name"] == [0, 2]  # the PDF's name, missing from the DOCX: 0 of 1, twice
    assert fam.agreement.share("employers") == 1.0
    assert "DOCX vs its PDF print (2 pairs, 1 Word families" in report.table()


def test_the_rules_run_in_worker_processes_with_the_same_numbers(zoo):
    every = load_zoo(zoo)
    one = score_zoo(every, select(every, None, True), workers=1).to_json()
    two = score_zoo(every, select(every, None, True), workers=2).to_json()
    for rep in (one, two):  # the empty DOCX files are unreadable: no pair is counted
        assert rep["families"][OPEN]["docx_pdf_pairs"] == 0
    assert one == two
    assert one["families"][OPEN]["docs"] == 2 and one["families"][OPEN]["errors"] == 0
    assert one["families"][OPEN]["fields"]["name"]["recall"] == 1.0
    assert one["unmarked"]["scope"] == "held-out" and one["unmarked"]["values"] > 0


def test_cvrag_eval_zoo_prints_the_tables_and_refuses_what_is_not_a_zoo(zoo, tmp_path, capsys):
    from cvrag_desktop.cli.entry import main

    assert main(["eval", "--zoo", str(zoo), "--families", OPEN]) == 0
    out = capsys.readouterr().out
    for part in ("Every family", "worst families", "Overall", "DOCX vs its PDF print", "Unmarked values right"):
        assert part in out
    assert HELD not in out
    assert main(["eval", "--zoo", str(zoo), "--include-held-out", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["families"]) == {OPEN, HELD} and data["overall_held_out"] is not None
    with pytest.raises(FileMissing):
        load_zoo(tmp_path)
    assert main(["eval", "--zoo", str(tmp_path)]) != 0
    err = capsys.readouterr()
    assert "manifest.json" in err.out + err.err and "Traceback" not in err.out + err.err
    assert main(["eval", "--zoo", str(zoo), "--families", HELD]) != 0
    assert main(["eval", "--zoo", str(zoo), "--workers", "0"]) == 2
