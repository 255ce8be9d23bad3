"""Text painted over by an opaque fill drawn after it is hidden text: not read, never a skill (issue 35, item 13).

A fill drawn before the text is its background and the text stays; a see-through fill (a
highlighter) hides nothing.
"""

from __future__ import annotations

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document


def _covered(path):
    c = canvas.Canvas(str(path), pagesize=A4, invariant=True)
    c.setFont("Helvetica-Bold", 18)
    c.drawString(60, 790, "Wilhelmina Quarrender")
    c.setFont("Helvetica", 10)
    c.drawString(60, 770, "wilhelmina.q@example.net")
    c.setFont("Helvetica-Bold", 13)
    c.drawString(60, 730, "Skills")
    c.setFont("Helvetica", 10)
    c.drawString(60, 712, "Phlebotomy, Triage")  # plain, visible
    c.drawString(60, 690, "Kubernetes, Terraform")  # then a white box over it: hidden
    c.setFillColorRGB(1, 1, 1)
    c.rect(55, 686, 300, 16, fill=1, stroke=0)
    c.rect(55, 664, 300, 16, fill=1, stroke=0)  # a white box first, then text on it: its background
    c.setFillColorRGB(0, 0, 0)
    c.drawString(60, 668, "Wound Care, Midwifery")
    c.drawString(60, 646, "Haskell, Erlang")  # then a dark blue bar over it: hidden
    c.setFillColorRGB(0.2, 0.3, 0.6)
    c.rect(55, 642, 300, 16, fill=1, stroke=0)
    c.setFillColorRGB(0, 0, 0)
    c.drawString(60, 624, "Radiography")  # then a see-through yellow highlight: visible
    c.setFillColorRGB(1, 1, 0, alpha=0.35)
    c.rect(55, 620, 300, 16, fill=1, stroke=0)
    c.save()
    return path


def test_text_under_an_opaque_fill_drawn_after_it_is_not_read(tmp_path):
    doc = extract_document(_covered(tmp_path / "cv.pdf"))
    text = doc.text
    assert "Kubernetes" not in text and "Terraform" not in text
    assert "Haskell" not in text and "Erlang" not in text
    assert any("no reader can see" in n for n in doc.notes)
    cv, _ = normalize_document(doc)
    assert not {"Kubernetes", "Terraform", "Haskell", "Erlang"} & {s for skill in cv.skills for s in skill.split()}


def test_text_on_a_fill_drawn_before_it_and_under_a_highlight_stays(tmp_path):
    doc = extract_document(_covered(tmp_path / "cv.pdf"))
    text = doc.text
    for visible in ("Wilhelmina Quarrender", "Phlebotomy, Triage", "Wound Care, Midwifery", "Radiography"):
        assert visible in text


def test_a_box_over_part_of_a_line_hides_only_the_run_it_covers(tmp_path):
    path = tmp_path / "half.pdf"
    c = canvas.Canvas(str(path), pagesize=A4, invariant=True)
    c.setFont("Helvetica", 10)
    c.drawString(60, 790, "Ottilie Brannock")
    c.drawString(60, 700, "Python")
    c.drawString(200, 700, "Fortran")
    c.setFillColorRGB(1, 1, 1)
    c.rect(195, 696, 80, 16, fill=1, stroke=0)
    c.save()
    text = extract_document(path).text
    assert "Python" in text and "Fortran" not in text


def test_a_frame_drawn_after_the_text_hides_only_what_lies_under_its_border(tmp_path):
    from reportlab.pdfgen.canvas import FILL_EVEN_ODD

    path = tmp_path / "frame.pdf"
    c = canvas.Canvas(str(path), pagesize=A4, invariant=True)
    c.setFont("Helvetica", 10)
    c.drawString(60, 790, "Ottilie Brannock")
    c.drawString(80, 700, "Cartography, Surveying")  # inside the frame's hole
    c.setFillColorRGB(0.3, 0.3, 0.3)
    frame = c.beginPath()
    frame.rect(40, 600, 500, 220)  # a page border: its bounding box covers the text, its paint does not
    frame.rect(50, 610, 480, 200)
    c.drawPath(frame, fill=1, stroke=0, fillMode=FILL_EVEN_ODD)
    c.save()
    assert "Cartography, Surveying" in extract_document(path).text
