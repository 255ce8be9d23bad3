"""Only text a reader can see counts: words drawn invisible (render mode 3) or white on a white page
are not read (keyword stuffing), white on a coloured band is, and a scan's invisible OCR layer is."""

from __future__ import annotations

import io

from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extract import extract_document


def _stuffed(path):
    c = canvas.Canvas(str(path), pagesize=A4, invariant=True)
    c.setFont("Helvetica-Bold", 18)
    c.drawString(60, 790, "Ines Marlow")
    c.setFont("Helvetica", 10)
    c.drawString(60, 770, "ines.marlow@example.org")
    c.setFont("Helvetica-Bold", 13)
    c.drawString(60, 730, "Skills")
    c.setFont("Helvetica", 10)
    c.drawString(60, 712, "Triage, Phlebotomy")
    c.setFillColorRGB(1, 1, 1)
    c.drawString(60, 680, "Docker, Kafka")  # white on the white page
    c.setFillColorRGB(0.1, 0.2, 0.4)
    c.rect(50, 600, 300, 40, fill=1, stroke=0)
    c.setFillColorRGB(1, 1, 1)
    c.drawString(60, 615, "Wound Care Certified")  # white on a dark band: seen
    c.setFillColorRGB(0, 0, 0)
    hidden = c.beginText(60, 696)  # last: reportlab keeps the render mode for what follows
    hidden.setTextRenderMode(3)
    hidden.setFont("Helvetica", 10)
    hidden.textLine("Kubernetes, Terraform")
    c.drawText(hidden)
    c.save()
    return path


def test_invisible_and_white_on_white_words_are_not_read(tmp_path):
    doc = extract_document(_stuffed(tmp_path / "cv.pdf"))
    text = doc.text
    assert "Triage" in text and "Wound Care Certified" in text
    assert "Kubernetes" not in text and "Docker" not in text
    assert any("no reader can see" in n for n in doc.notes)
    cv, _ = normalize_document(doc)
    assert not {"Kubernetes", "Terraform", "Docker", "Kafka"} & set(cv.skills)


def test_the_invisible_text_layer_of_a_scan_is_read(tmp_path):
    from PIL import Image

    img = Image.new("RGB", (595, 842), (250, 250, 250))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    path = tmp_path / "scan.pdf"
    c = canvas.Canvas(str(path), pagesize=A4, invariant=True)
    c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=A4[0], height=A4[1])
    layer = c.beginText(60, 790)
    layer.setTextRenderMode(3)
    layer.setFont("Helvetica", 12)
    layer.textLine("Ines Marlow")
    layer.textLine("ines.marlow@example.org")
    c.drawText(layer)
    c.save()
    doc = extract_document(path, allow_ocr=False)
    assert "Ines Marlow" in doc.text and not doc.notes
