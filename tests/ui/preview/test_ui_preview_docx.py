"""Word CVs in the preview pane: their rendered pages, provenance highlights, and an older library's first view.

The Word and PDF files are built in the test (invented people only).
"""

from __future__ import annotations

import docx
import pytest

from cvrag_desktop.catalog.library import preview_path
from cvrag_desktop.ui.shell.main_window import CANDIDATES
from tests.support.minipdf import write_pdf

NAME = "Leandro Ibarguren Solís"
EMAIL = "leandro.ibarguren@example.org"


def write_docx(path):
    d = docx.Document()
    d.add_heading(NAME, level=0)
    d.add_paragraph(f"Data Engineer · {EMAIL} · +34 622 000 111")
    d.add_heading("Experience", level=1)
    d.add_paragraph("Data Engineer, Brumal Analytics S.A.\t04/2021 - present")
    d.add_paragraph("Batch and streaming jobs in Spark and Airflow for retail forecasting. " * 4)
    d.add_heading("Education", level=1)
    d.add_paragraph("BSc Mathematics, Universidad de Oviedo\t2014 - 2018")
    d.add_heading("Skills", level=1)
    d.add_paragraph("Python, Spark, Airflow, SQL")
    d.save(path)
    return path


def write_older_pdf(path):
    """The same person's older CV as a PDF (same name and e-mail: one person, two documents)."""
    return write_pdf(path, [[(60, 60, NAME, 18, True), (60, 90, f"Junior Data Analyst  {EMAIL}", 10),
                             (60, 130, "Experience", 13, True),
                             (60, 150, "Data Analyst, Brumal Analytics S.A.  2018 - 2021", 10),
                             (60, 190, "Skills", 13, True), (60, 210, "SQL, Excel, Python", 10)]],
                     creation="2021-01-10")


def _import(window, qtbot, folder):
    with qtbot.waitSignal(window.importer.batch_finished, timeout=300_000):
        window.importer.import_paths([folder])
    n = len(window.services.people.list_people())
    qtbot.waitUntil(lambda: window.candidates.model.rowCount() == n, timeout=30_000)
    window.show_pane(CANDIDATES)
    return window.candidates


@pytest.fixture
def word_only(window, qtbot, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    write_docx(folder / "leandro.docx")
    return _import(window, qtbot, folder)


def _docx_record(pane):
    row = next(r for r in pane.model.rows() if r["name"] == NAME)
    return row["id"]


def test_a_word_cv_shows_its_rendered_page(word_only, qtbot):
    pane = word_only
    with qtbot.waitSignal(pane.preview.rendered, timeout=30_000) as blocker:
        assert pane.select_candidate(_docx_record(pane))
    rec = pane.detail.record
    assert rec["stored_path"].endswith(".docx")
    assert blocker.args[0] == 0
    assert pane.preview.source == rec["stored_path"]
    assert pane.preview.path == str(preview_path(rec["stored_path"]))
    assert pane.preview.image is not None and pane.preview.pages >= 1
    assert "Page 1/" in pane.preview.page_label.text()
    assert "No preview" not in pane.preview.canvas.text()


def test_provenance_of_a_word_cv_is_highlighted_on_its_preview(word_only, qtbot):
    pane = word_only
    with qtbot.waitSignal(pane.preview.rendered, timeout=30_000):
        pane.select_candidate(_docx_record(pane))
    prov = pane.detail.record["provenance"]
    i = next(k for k, p in enumerate(prov) if p["value"] == EMAIL and p["bbox"])
    with qtbot.waitSignal(pane.preview.rendered, timeout=30_000) as blocker:
        pane.detail.open_provenance(i)
    assert blocker.args[0] == prov[i]["page"]
    assert pane.preview.bbox == tuple(prov[i]["bbox"])
    r = pane.preview.highlight_rect.center()
    color = pane.preview.image.pixelColor(int(r.x()), int(r.y()))
    assert color.blue() < color.red()  # the yellow tint over the e-mail line


def test_an_older_library_makes_the_preview_on_first_view(word_only, qtbot):
    pane = word_only
    cid = _docx_record(pane)
    stored = pane.services.people.get_candidate(cid)["stored_path"]
    preview_path(stored).unlink()  # as a library imported before previews existed
    with qtbot.waitSignal(pane.preview.rendered, timeout=30_000):
        pane.select_candidate(cid)
    assert preview_path(stored).exists() and pane.preview.path == str(preview_path(stored))


def test_a_person_with_a_pdf_and_a_word_cv_previews_the_document_of_the_fact(window, qtbot, tmp_path):
    folder = tmp_path / "both"
    folder.mkdir()
    write_older_pdf(folder / "leandro-2021.pdf")
    write_docx(folder / "leandro-2024.docx")
    pane = _import(window, qtbot, folder)
    people = window.services.people.list_people(with_documents=True)
    assert len(people) == 1, people  # one person, two documents
    with qtbot.waitSignal(pane.preview.rendered, timeout=30_000):
        pane.select_candidate(pane.model.rows()[0]["id"])
    rec = pane.detail.record
    assert len(pane.detail.documents) == 2
    prov = rec["provenance"]
    i = next(k for k, p in enumerate(prov) if p["bbox"])
    with qtbot.waitSignal(pane.preview.rendered, timeout=30_000):
        pane.detail.open_provenance(i)
    assert pane.preview.source == rec["stored_path"]  # the document the shown facts were read from
    other = next(d for d in pane.detail.documents if d["id"] != rec["id"])
    with qtbot.waitSignal(pane.preview.rendered, timeout=30_000):
        pane.open_document(other["id"])
    assert pane.preview.source == other["stored_path"] != rec["stored_path"]


def test_blind_screening_blacks_out_the_name_on_a_word_preview(word_only, qtbot):
    """The provenance box of the name lands on the preview's name line and is painted solid."""
    pane = word_only
    win = pane.window()
    with qtbot.waitSignal(pane.loaded, timeout=30_000):
        win.blind.action.setChecked(True)
    cid = pane.model.rows()[0]["id"]
    with qtbot.waitSignal(pane.preview.rendered, timeout=30_000):
        pane.select_candidate(cid)
    name_box = next(p["bbox"] for p in pane.services.people.get_candidate(cid)["provenance"] if p["field"] == "name")
    assert (0, tuple(name_box)) in pane.preview.redactions
    z = pane.preview.zoom
    cx, cy = (name_box[0] + name_box[2]) / 2 * z, (name_box[1] + name_box[3]) / 2 * z
    pixel = pane.preview.image.pixelColor(int(cx), int(cy))
    assert max(pixel.red(), pixel.green(), pixel.blue()) < 60


def test_a_chat_citation_into_a_word_cv_opens_at_the_cited_lines(word_only, qtbot):
    """The acceptance case: a citation of a Word CV opens its preview at the cited page with the cited text lit."""
    from cvrag_desktop.ui.shell.main_window import CHAT

    win = word_only.window()
    r = win.services.assistant.ask("How many candidates know Airflow?", use_llm=False)
    assert r["status"] == "answered", r
    c = r["citations"][0]
    win.show_pane(CHAT)
    preview = win.chat.preview
    with qtbot.waitSignal(preview.rendered, timeout=30_000) as blocker:
        win.chat.open_citation(c)
    assert blocker.args[0] == c["page"]
    assert preview.source.endswith(".docx") and preview.path.endswith(".pdf")
    assert preview.hits, "the cited facts are found inside the cited box on the preview"
    x0, y0, x1, y1 = preview.bbox
    assert all(x0 - 4 <= h[0] and h[2] <= x1 + 4 and y0 - 4 <= h[1] and h[3] <= y1 + 4 for h in preview.hits)
