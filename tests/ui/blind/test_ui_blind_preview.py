"""The blind preview paints over a private-life line and a photo it finds on the page (no provenance box
needed), besides the person's strings. The PDF is built here with reportlab; the person is invented."""

from __future__ import annotations

import io

from cvrag_desktop.catalog.privacy.blind import redaction_strings


def _cv(path):
    from PIL import Image
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    photo = io.BytesIO()
    Image.new("RGB", (60, 80), (240, 240, 240)).save(photo, format="PNG")  # a pale photo: black once boxed
    photo.seek(0)
    c = canvas.Canvas(str(path), pagesize=(595, 842))
    c.drawImage(ImageReader(photo), 460, 700, width=90, height=120)
    c.setFont("Helvetica", 11)
    c.drawString(50, 790, "Orsolya Vendramin")
    c.drawString(50, 720, "Geburtsdatum: 01.02.1990")
    c.drawString(50, 640, "2019 – 2021 Senior Engineer, Acme Invented Ltd")
    c.save()
    return path


def _dark(image, x: float, y: float, zoom: float) -> bool:
    px = image.pixelColor(int(x * zoom), int(y * zoom))
    return max(px.red(), px.green(), px.blue()) < 60


def test_preview_boxes_a_personal_line_and_a_photo(qtbot, tmp_path):
    from PySide6.QtWidgets import QWidget

    from cvrag_desktop.ui.shell.tasks import TaskRunner
    from cvrag_desktop.ui.widgets.page_render import render_page
    from cvrag_desktop.ui.widgets.pdf_preview import PdfPreview

    path = _cv(tmp_path / "cv.pdf")
    strings = redaction_strings({"name": "Orsolya Vendramin"})
    masked = render_page(str(path), 0, mask=strings)["masked"]
    assert any(b[0] >= 459 and b[2] <= 551 and b[3] - b[1] > 100 for b in masked)  # the photo
    assert any(abs(b[1] - (842 - 731)) < 6 for b in masked)  # the birth-date line
    assert not any(190 < b[1] < 205 for b in masked)  # the work dates stay readable
    owner = QWidget()
    qtbot.addWidget(owner)
    preview = PdfPreview(TaskRunner(parent=owner), owner)
    preview.resize(700, 900)
    preview.redactions = strings
    with qtbot.waitSignal(preview.rendered, timeout=30_000):
        preview.open(str(path), 0)
    qtbot.waitUntil(lambda: preview.image is not None and bool(preview.masked), timeout=30_000)
    z = preview.zoom
    assert _dark(preview.image, 505, 842 - 760, z)  # the middle of the photo
    assert _dark(preview.image, 70, 842 - 724, z)  # inside "Geburtsdatum: …"
    assert not _dark(preview.image, 300, 842 - 760, z)  # blank page beside them stays white
