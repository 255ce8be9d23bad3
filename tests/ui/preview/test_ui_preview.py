"""The PDF preview: a citation opens its own document at its own page (also right after a
shorter document), zoom in/out, fit width/page, open in the system viewer."""

from __future__ import annotations

import pytest

from cvrag_desktop.ui.shell.main_window import CHAT
from tests.support.minipdf import write_pdf


def _pdf(path, pages: int):
    return write_pdf(path, [[(60, 60, f"Invented person, page {n + 1} of {pages}", 12),
                             (60, 400, f"Section line {n + 1}", 10)] for n in range(pages)])


@pytest.fixture
def pdfs(tmp_path):
    """A 2-page CV and a 12-page CV (both invented)."""
    return _pdf(tmp_path / "short.pdf", 2), _pdf(tmp_path / "long.pdf", 12)


def test_citation_of_a_long_cv_after_a_short_one(window, qtbot, pdfs):
    short, long_ = pdfs
    window.show_pane(CHAT)
    preview = window.chat.preview
    with qtbot.waitSignal(preview.rendered, timeout=30_000) as first:
        window.chat.open_citation({"source_path": str(short), "page": 1, "bbox": [60, 60, 300, 80]})
    assert first.args[0] == 1 and preview.pages == 2
    with qtbot.waitSignal(preview.rendered, timeout=30_000) as second:
        window.chat.open_citation({"source_path": str(long_), "page": 10, "bbox": [60, 400, 300, 420],
                                   "full_text": "Section line 11"})
    assert second.args[0] == 10  # not clamped to the short CV's two pages
    assert preview.path == str(long_) and preview.pages == 12
    assert preview.hits, "the cited line is highlighted on that page"
    assert "Page 11/12" in preview.page_label.text()


def test_zoom_fit_and_system_viewer(window, qtbot, pdfs, monkeypatch):
    _short, long_ = pdfs
    window.show_pane(CHAT)
    preview = window.chat.preview
    with qtbot.waitSignal(preview.rendered, timeout=30_000):
        preview.open(str(long_), 3)
    qtbot.waitUntil(preview.settled, timeout=30_000)  # the pane may be laid out again after the first render
    fit_zoom = preview.zoom
    assert preview.fit == "width"
    with qtbot.waitSignal(preview.rendered, timeout=30_000):
        preview.zoom_in_btn.click()
    assert preview.fit is None and preview.zoom == pytest.approx(fit_zoom * 1.25, rel=1e-3)
    assert preview.page == 3  # zooming stays on the page
    with qtbot.waitSignal(preview.rendered, timeout=30_000):
        preview.zoom_out_btn.click()
    assert preview.zoom == pytest.approx(fit_zoom, rel=1e-3)
    with qtbot.waitSignal(preview.rendered, timeout=30_000):
        preview.fit_page_btn.click()
    assert preview.fit == "page" and preview.image.height() <= preview.scroll.height()
    with qtbot.waitSignal(preview.rendered, timeout=30_000):
        preview.fit_width_btn.click()
    qtbot.waitUntil(preview.settled, timeout=30_000)
    assert preview.zoom == pytest.approx(fit_zoom, rel=1e-3)
    opened = []
    monkeypatch.setattr("cvrag_desktop.ui.widgets.pdf_preview.QDesktopServices.openUrl",
                        lambda url: opened.append(url) or True)
    assert preview.external_btn.isEnabled()
    preview.external_btn.click()
    assert [u.toLocalFile() for u in opened] == [str(long_)]
    preview.clear()
    assert not preview.external_btn.isEnabled() and not preview.zoom_in_btn.isEnabled()


def test_blind_masks_identifying_strings_wherever_a_page_prints_them(tmp_path):
    """A name repeated in a footer (no provenance box) is masked; whole words only, so "Analyst"
    keeps its text; an e-mail inside a longer token is masked too."""
    from cvrag_desktop.ui.widgets.page_render import render_page

    path = write_pdf(tmp_path / "cv.pdf", [[(60, 60, "Ana Quintero", 14), (60, 120, "Senior Analyst at Acme", 10),
                                            (60, 160, "Mail:ana@quintero.example", 10),
                                            (60, 200, "GitHub: quintero77", 10),
                                            (60, 760, "Ana Quintero - page 1", 8)]])
    out = render_page(str(path), 0, mask=["Ana Quintero", "Ana", "Quintero", "ana@quintero.example"])
    ys = sorted({round(y0 / 10) for _x0, y0, _x1, _y1 in out["masked"]})
    assert len([b for b in out["masked"] if b[1] > 700]) >= 1  # the footer
    assert any(abs(b[1] - 150) < 15 for b in out["masked"])  # the e-mail inside "Mail:…"
    assert not any(100 < b[1] < 130 for b in out["masked"]), ys  # "Analyst" is not "Ana"
    assert any(abs(b[1] - 190) < 15 and b[0] > 90 for b in out["masked"])  # a handle holding the surname
    assert render_page(str(path), 0)["masked"] == []
