"""What a blind preview covers on the page itself (catalog/privacy/blind_page.py): a private-life line, a label's
value beside it, a photo, and a surname's short part printed on the next line. The PDF is built here with
reportlab; the person is invented."""

from __future__ import annotations

import io

import pymupdf
import pytest

from cvrag_desktop.catalog.privacy.blind_page import (
    image_boxes,
    name_part_boxes,
    page_boxes,
    personal_line_boxes,
)

NAME = "Zelinda Di Quorvane"


def _inside(rect, boxes, share: float = 0.5) -> bool:
    x0, y0, x1, y1 = rect
    area = max((x1 - x0) * (y1 - y0), 1e-6)
    for b0, c0, b1, c1 in boxes:
        w, h = min(x1, b1 + 1) - max(x0, b0 - 1), min(y1, c1 + 1) - max(y0, c0 - 1)
        if w > 0 and h > 0 and w * h >= share * area:
            return True
    return False


@pytest.fixture
def cv_pdf(tmp_path):
    """One page: a photo, a name broken over two lines, Europass-style personal lines, work history."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    photo = io.BytesIO()
    Image.new("RGB", (60, 80), (180, 120, 90)).save(photo, format="PNG")
    photo.seek(0)
    path = tmp_path / "invented.pdf"
    c = canvas.Canvas(str(path), pagesize=(595, 842))
    c.drawImage(ImageReader(photo), 460, 700, width=90, height=120)  # top right, like a Europass photo
    c.setFont("Helvetica-Bold", 20)
    c.drawString(50, 790, "Zelinda Quorvane")
    c.drawString(50, 766, "Di")  # the name's short part wraps to the next line
    c.setFont("Helvetica", 11)
    c.drawString(50, 720, "Date of birth: 14 March 1991")
    c.drawString(50, 704, "Nationality")
    c.drawString(160, 704, "Utopian")  # the value in the next column
    c.drawString(50, 688, "42 Quillfeather Street, Nowhere ZZ1 9QQ")
    c.drawString(50, 640, "Experience")
    c.drawString(50, 624, "2019 – 2021 Senior Engineer, Acme Invented Ltd")
    c.drawString(50, 608, "Distributed systems: CAP theorem, consensus")
    c.save()
    return path


def _rect(page, text):
    hits = page.search_for(text)
    assert hits, text
    r = hits[0]
    return (r.x0, r.y0, r.x1, r.y1)


def test_personal_lines_and_their_values_are_boxed(cv_pdf):
    with pymupdf.open(cv_pdf) as doc:
        page = doc[0]
        boxes = personal_line_boxes(page)
        for text in ("Date of birth: 14 March 1991", "Nationality", "Utopian", "42 Quillfeather Street"):
            assert _inside(_rect(page, text), boxes), text
        for text in ("2019 – 2021 Senior Engineer", "CAP theorem", "Experience"):
            assert not _inside(_rect(page, text), boxes), text


def test_the_photo_is_boxed(cv_pdf):
    with pymupdf.open(cv_pdf) as doc:
        boxes = image_boxes(doc[0])
    assert len(boxes) == 1
    x0, y0, x1, y1 = boxes[0]
    assert abs(x0 - 460) < 1 and abs(x1 - 550) < 1 and abs(y0 - (842 - 820)) < 1 and abs(y1 - (842 - 700)) < 1


def test_a_short_name_part_on_the_next_line_is_covered(cv_pdf):
    with pymupdf.open(cv_pdf) as doc:
        page = doc[0]
        boxes = name_part_boxes(page, NAME)
        assert _inside(_rect(page, "Di"), boxes)
        assert not _inside(_rect(page, "Date of birth"), boxes)
        everything = page_boxes(page, [NAME])
        assert _inside(_rect(page, "Di"), everything) and _inside(_rect(page, "Utopian"), everything)
