"""`cvrag eval --dataset`: recall and precision per field, on invented people (no real CV data)."""

from __future__ import annotations

import json

import docx

from cvrag_desktop.cli.entry import main
from cvrag_desktop.domain import Education, Experience, NormalizedCV
from cvrag_desktop.evaluation.matching import compare, same_language, same_skill, similar
from cvrag_desktop.evaluation.real_cvs import FIELDS, EvalReport, evaluate_folder, score_cv


def _label(**kw) -> dict:
    """A labels.json entry with every field empty unless given."""
    base = {"file": "invented.pdf", "language": "en", "layout": "single-column", "name": None, "emails": [],
            "phones": [], "current_title": None, "current_company": None, "companies": [], "job_titles": [],
            "degrees": [], "institutions": [], "skills": [], "languages": [], "years_experience_min": None,
            "years_experience_max": None, "sections": [], "notes": ""}
    return {**base, **kw}


def _score(cv: NormalizedCV, label: dict) -> tuple[EvalReport, dict]:
    report = EvalReport()
    detail = score_cv(cv, label, report)
    report.files.append(detail)
    return report, detail


def _counts(report: EvalReport, field: str) -> tuple[int, int, int]:
    c = report.counts[field]
    return c.tp, c.fp, c.fn


def _roles(*companies: str) -> list[Experience]:
    return [Experience(title="Engineer", company=c, start="2020-01", end="2021-01") for c in companies]


def test_invented_title_where_the_label_has_none_is_a_false_positive():
    report, detail = _score(NormalizedCV(name="Quintus Arbogast", current_title="Chief Llama Officer"),
                            _label(name="Quintus Arbogast", current_title=None))
    assert _counts(report, "current_title") == (0, 1, 0)
    assert report.counts["current_title"].precision == 0.0 and report.counts["current_title"].recall is None
    assert detail["fields"]["current_title"]["fp"] == ["Chief Llama Officer"]
    assert report.totals["current_title"] == [0, 0]  # the old column only counts labelled titles
    assert report.rate("current_title") == 1.0


def test_single_values_right_wrong_and_missing():
    right, _ = _score(NormalizedCV(current_title="Senior Data Engineer"),
                      _label(current_title="Senior Data Engineer (Platform)"))
    assert _counts(right, "current_title") == (1, 0, 0) and right.totals["current_title"] == [1, 1]
    wrong, detail = _score(NormalizedCV(current_title="Beekeeper"), _label(current_title="Data Engineer"))
    assert _counts(wrong, "current_title") == (0, 1, 1)  # a wrong value is fp + fn
    assert detail["fields"]["current_title"]["fn"] == ["Data Engineer"]
    missing, _ = _score(NormalizedCV(), _label(current_title="Data Engineer"))
    assert _counts(missing, "current_title") == (0, 0, 1)
    nothing, _ = _score(NormalizedCV(), _label())
    assert _counts(nothing, "current_title") == (0, 0, 0)


def test_name_is_compared_exactly_after_case_and_accents():
    report, _ = _score(NormalizedCV(name="ZOË QUILLFEATHER"), _label(name="Zoe Quillfeather"))
    assert _counts(report, "name") == (1, 0, 0) and report.totals["name"] == [1, 1]
    report, _ = _score(NormalizedCV(name="Zoe Quill"), _label(name="Zoe Quillfeather"))
    assert _counts(report, "name") == (0, 1, 1) and report.totals["name"] == [0, 1]


def test_emails_are_compared_address_by_address():
    label = _label(emails=["zoe@example.org", "zq@example.net"])
    report, detail = _score(NormalizedCV(emails=["ZOE@example.org", "referee@example.com"]), label)
    assert _counts(report, "email") == (1, 1, 1)
    assert detail["fields"]["email"]["fp"] == ["referee@example.com"]
    assert report.totals["email"] == [0, 1]  # old column: a CV is a hit when every address was found
    report, _ = _score(NormalizedCV(emails=["someone@example.com"]), _label(emails=[]))
    assert _counts(report, "email") == (0, 1, 0)


def test_missing_employer_is_a_false_negative_and_an_extra_one_a_false_positive():
    label = _label(companies=["Globex Corporation", "Initech"])
    report, detail = _score(NormalizedCV(experiences=_roles("Globex", "Springfield Nuclear Plant")), label)
    assert _counts(report, "employers") == (1, 1, 1)
    assert detail["fields"]["employers"]["fn"] == ["Initech"]
    assert detail["fields"]["employers"]["fp"] == ["Springfield Nuclear Plant"]
    assert report.totals["employers"] == [1, 2]
    # nothing labelled: everything extracted is invented
    report, _ = _score(NormalizedCV(experiences=_roles("Globex", "Initech")), _label(companies=[]))
    assert _counts(report, "employers") == (0, 2, 0) and report.totals["employers"] == [0, 0]


def test_degrees_use_the_tolerant_match():
    cv = NormalizedCV(education=[Education(degree="MSc", field="Marine Robotics"), Education(degree="Diploma")])
    report, _ = _score(cv, _label(degrees=["MSc in Marine Robotics", "BSc in Physics"]))
    assert _counts(report, "degrees") == (1, 1, 1)


def test_skill_aliases_match_through_the_canonical_key():
    label = _label(skills=["JavaScript", "Kubernetes", "Haskell"])
    report, detail = _score(NormalizedCV(skills=["JS", "k8s", "Cobol", "javascript"]), label)
    assert _counts(report, "skills") == (2, 1, 1)  # "JS" and "javascript" are one extracted skill
    assert detail["fields"]["skills"]["fp"] == ["Cobol"] and detail["fields"]["skills"]["fn"] == ["Haskell"]
    assert same_skill("JS", "JavaScript") and not same_skill("Java", "JavaScript")


def test_language_with_a_level_matches():
    label = _label(languages=["German (native)", "Inglés", "Klingon"])
    report, detail = _score(NormalizedCV(languages=["Deutsch", "English – C1", "French"]), label)
    assert _counts(report, "languages") == (2, 1, 1)
    assert detail["fields"]["languages"]["fp"] == ["French"]
    assert same_language("German (native)", "German") and not same_language("German", "")


def test_sections_count_both_ways():
    report, _ = _score(NormalizedCV(sections=["experience", "skills", "awards"]),
                       _label(sections=["experience", "skills", "education"]))
    assert _counts(report, "sections") == (2, 1, 1) and report.totals["sections"] == [2, 3]


def test_years_in_range_out_of_range_and_unlabelled():
    def years(got, lo, hi):
        report, detail = _score(NormalizedCV(years_of_experience=got),
                                _label(years_experience_min=lo, years_experience_max=hi))
        return report, detail["years"]["in_range"]

    assert years(5.0, 4.0, 6.0)[1] is True
    assert years(6.4, 4.0, 6.0)[1] is True  # within the 0.5 tolerance
    assert years(3.4, 4.0, 6.0)[1] is False
    assert years(None, 4.0, 6.0)[1] is False  # labelled but not extracted: a miss
    report, in_range = years(7.0, None, None)  # nothing labelled: not scored
    assert in_range is None and report.totals["years"] == [0, 0] and report.years_unscored == 1
    report, _ = years(5.0, 4.0, 6.0)
    assert report.totals["years"] == [1, 1] and report.rate("years") == 1.0


def test_table_prints_numbers_only_and_json_has_the_details():
    report, _ = _score(NormalizedCV(name="Quintus Arbogast", current_title="Chief Llama Officer",
                                    skills=["Llama herding"]),
                       _label(name="Quintus Arbogast", skills=["Origami"]))
    table = report.table()
    for row in (*FIELDS, "years"):
        assert f"\n{row} " in table
    assert "precision" in table and "recall" in table and "hits" in table and "rate" in table
    for private in ("Quintus", "Arbogast", "Llama", "Origami", "invented.pdf"):
        assert private not in table
    data = report.to_json()
    assert data["fields"]["current_title"]["fp"] == 1 and data["fields"]["skills"]["fn"] == 1
    assert data["files"][0]["fields"]["skills"]["fp"] == ["Llama herding"]
    assert set(data["rates"]) == {*FIELDS, "years"}


def test_compare_deduplicates_and_drops_blanks():
    cmp = compare(["Globex", "", None], ["GLOBEX", "Globex", " "], similar)
    assert (cmp.tp, cmp.fp, cmp.fn, len(cmp.got)) == (1, 0, 0, 1)


def _dataset(tmp_path):
    """A labelled folder: one invented DOCX CV, one image-only entry, one missing file."""
    pdf = tmp_path / "ds" / "pdf"
    pdf.mkdir(parents=True)
    d = docx.Document()
    d.add_heading("Quintus Arbogast", level=0)
    d.add_paragraph("Data Engineer\tquintus@example.org")
    d.add_heading("Experience", level=1)
    d.add_paragraph("Data Engineer, Globex\t03/2020 - present")
    d.add_paragraph("• Pipelines in Python and SQL")
    d.save(pdf / "quintus.docx")
    labels = [
        _label(file="quintus.docx", name="Quintus Arbogast", emails=["quintus@example.org"],
               current_title="Data Engineer", companies=["Globex"], sections=["experience"]),
        _label(file="scan.pdf", layout="image-only", name="Nobody Scanned"),
        _label(file="gone.pdf", name="Absent Person", current_title=None),
    ]
    (tmp_path / "ds" / "labels.json").write_text(json.dumps(labels), encoding="utf-8")
    return tmp_path / "ds"


def test_evaluate_folder_reads_docx_and_counts_skipped_and_unreadable(tmp_path):
    report = evaluate_folder(_dataset(tmp_path))
    assert report.labelled == 3 and report.skipped_image_only == ["scan.pdf"] and report.errors == 1
    assert [f["file"] for f in report.files] == ["quintus.docx", "gone.pdf"]
    assert "error" in report.files[1] and "error" not in report.files[0]
    assert report.counts["name"].tp == 1 and report.counts["name"].fn == 1
    assert report.counts["email"].tp == 1  # the DOCX was read through extract_document
    assert "1 image-only skipped" in report.table() and "1 unreadable" in report.table()


def test_cli_eval_table_and_json(tmp_path, capsys):
    ds = _dataset(tmp_path)
    assert main(["eval", "--dataset", str(ds)]) == 0
    out = capsys.readouterr().out
    assert "precision" in out and "Quintus" not in out and "quintus" not in out
    assert main(["eval", "--dataset", str(ds), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"rates", "totals", "fields", "years", "files", "skipped_image_only"} <= set(data)
    assert data["files"][0]["fields"]["name"]["got"] == "Quintus Arbogast"
    assert main(["eval", "--dataset", str(tmp_path)]) == 2  # no labels.json
