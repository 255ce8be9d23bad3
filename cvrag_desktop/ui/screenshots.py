"""Render every pane to PNG files at laptop and desktop sizes (``make screenshots``).

``python -m cvrag_desktop.ui.screenshots docs/screenshots [CV_FOLDER]`` — uses a throwaway
``CVRAG_HOME``, imports the CVs of ``CV_FOLDER`` (default: 40 generated ones — never real CVs,
which are personal data), then grabs each pane as the app lays it out on a screen of each size
(the window filling the screen's available area, dialogs fitted as ``ui/shell/fit.py`` fits them):
``<out>/<pane>.png`` at 1366×768, ``<out>/1024x700/<pane>.png`` and ``<out>/1920x1080/<pane>.png``. Scenes: the first-run
welcome, generate, import, candidates (shortlist, screening, provenance), ranked search,
chat, job match and settings. Run it under Xvfb (``xvfb-run -a``) for real fonts and
rendering; ``QT_QPA_PLATFORM=offscreen`` also works.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QRect, QSize
from PySide6.QtWidgets import QApplication

from cvrag_desktop.app.assembly import App
from cvrag_desktop.ui.shell.application import make_application
from cvrag_desktop.ui.shell.fit import SCREEN_FRACTION, fit_window

SIZES = ((1366, 768, ""), (1024, 700, "1024x700"), (1920, 1080, "1920x1080"))  # (width, height, subfolder)
SEARCH = "python machine learning"


def _wait(app: QApplication, cond, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise TimeoutError("screenshot scene did not settle")
        app.processEvents()
        time.sleep(0.02)
    for _ in range(20):
        app.processEvents()
        time.sleep(0.01)


QUESTIONS = ("Who speaks German?", "Who built data pipelines?", "What are the salary expectations?")
JD = ("Senior data engineer\nRequirements: Python, SQL, Apache Kafka, 5+ years of experience, fluent English.\n"
      "Nice to have: Docker, Kubernetes")
SETTLED = ("answered", "unknown", "failed")


def chat_scene(app: QApplication, win) -> None:
    """Ask a few questions (no language model: deterministic answers) and open one citation."""
    chat = win.chat
    _wait(app, lambda: chat.llm_up is not None)
    for q in QUESTIONS:
        chat.ask(q)
        card = chat.transcript.cards[-1]
        _wait(app, lambda card=card: card.state in SETTLED)
    card = chat.transcript.cards[3]  # "Who built data pipelines?": quoted lines to highlight
    if card.chips:
        card.chips[min(1, len(card.chips) - 1)].click()
        _wait(app, lambda: chat.preview.image is not None)
    chat.splitter.setSizes([200, 760, 520])


def _rendering(win) -> bool:
    """Whether a preview of the window (its panes' and dialogs') is still rendering a page."""
    dialog = win.chat.job_dialog
    previews = [win.candidates.preview, win.chat.preview] + ([dialog.preview] if dialog is not None else [])
    return any(win.runner.busy(p.task) for p in previews)


def blind_scene(app: QApplication, win, person_id: str) -> None:
    """Blind screening on: the table, the detail and the preview (redacted boxes) of one candidate."""
    pane = win.candidates
    win.blind.set_enabled(True)
    _wait(app, lambda: not win.runner.busy("candidates-load"))
    pane.select_candidate(person_id)
    _wait(app, lambda: pane.preview.image is not None and not _rendering(win))


def job_scene(app: QApplication, win):
    """The job-description matrix with one "met" cell's evidence open."""
    dlg = win.match_job()
    dlg.jd.setPlainText(JD)
    dlg.run_match()
    _wait(app, lambda: dlg.result is not None)
    t = dlg.table
    met = next(((r, c) for r in range(t.rowCount()) for c in range(3, t.columnCount())
                if t.item(r, c) and t.item(r, c).text().startswith("✓")), None)
    if met:
        t.setCurrentCell(*met)
        dlg.open_cell(*met)
        _wait(app, lambda: dlg.preview.image is not None)
    return dlg


def render(out_dir: Path, cvs: Path | None = None, count: int = 40, seed: int = 2026) -> list[Path]:
    """Build the scenes and write one PNG per pane and size; returns the files written.

    ``cvs``: a folder of CVs to import (else ``count`` generated ones).
    """
    home = Path(tempfile.mkdtemp(prefix="cvrag-shots-"))
    os.environ["CVRAG_HOME"] = str(home)
    os.environ.setdefault("CVRAG_LLM_URL", "http://127.0.0.1:9")
    app = make_application(sys.argv[:1])
    from cvrag_desktop.ui.shell.main_window import CANDIDATES, CHAT, GENERATE, IMPORT, MainWindow

    services = App()
    gen = home / "generated"
    if cvs is None:
        services.library.generate(count, seed, gen, locale="mixed", layout="mixed")
    source = cvs if cvs is not None else gen
    win = MainWindow(services)
    fit_window(win, QSize(*SIZES[0][:2]), QRect(0, 0, *SIZES[0][:2]))
    win.show()
    win.start()
    _wait(app, lambda: win.status.info is not None)
    shots: list[Path] = []
    out_dir.mkdir(parents=True, exist_ok=True)

    def grab(name: str, widget=None, wanted: QSize | None = None) -> None:
        widget = widget or win
        for w, h, sub in SIZES:
            screen = QRect(0, 0, w, h)
            fit_window(widget, wanted or QSize(w, h), screen, fraction=1.0 if wanted is None else SCREEN_FRACTION)
            for _ in range(10):
                app.processEvents()
                time.sleep(0.03)
            _wait(app, lambda: not _rendering(win) and not win.runner.busy("jobmatch-preview"))
            time.sleep(0.3)  # the preview re-fits to the new size after a short pause
            _wait(app, lambda: not _rendering(win))
            folder = out_dir / sub
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"{name}.png"
            widget.grab().save(str(path))
            shots.append(path)
        fit_window(win, QSize(*SIZES[0][:2]), QRect(0, 0, *SIZES[0][:2]))

    win.show_pane(CANDIDATES)
    _wait(app, lambda: win.candidates.views.currentWidget() is win.candidates.welcome)
    grab("welcome")

    win.show_pane(GENERATE)
    win.generate.out_dir.setText(str(gen))
    win.generate.count.setValue(count)
    win.generate.seed.setValue(seed)
    grab("generate")
    win.show_pane(IMPORT)
    win.importer.import_paths([source])
    _wait(app, lambda: not win.importer.busy, timeout=900)
    _wait(app, lambda: win.candidates.model.rowCount() > 0)
    grab("import")
    pane = win.candidates
    win.show_pane(CANDIDATES)
    bar = pane.shortlists
    bar.create("Backend shortlist")
    _wait(app, lambda: bar.current_id() is not None)
    ids = [r["id"] for r in pane.model.rows()[:4]]
    bar.add(ids)
    _wait(app, lambda: "(4)" in bar.combo.currentText())
    for pid, state in zip(ids, ({"status": "interview", "rating": 4, "add_tags": ["backend"]},
                                {"status": "screening", "rating": 3}, {"status": "rejected"}), strict=False):
        services.screening.set_screening([pid], **state)
    pane.reload()
    _wait(app, lambda: (pane.model.row(ids[0]) or {}).get("status") == "interview")
    pane.select_candidate(ids[0])
    _wait(app, lambda: pane.preview.image is not None)
    prov = pane.detail.record.get("provenance") or []
    pick = next((i for i, p in enumerate(prov) if p["field"].startswith("experiences") and p.get("bbox")), None)
    if pick is not None:
        before = pane.preview.image
        pane.detail.open_provenance(pick)
        _wait(app, lambda: pane.preview.image is not before)
    grab("candidates")
    pane.search.setText(SEARCH)
    _wait(app, lambda: pane.ranked and not win.runner.busy("search"))
    top = pane.proxy.visible_ids()
    if top:
        pane.select_candidate(top[0])
        _wait(app, lambda: pane.preview.image is not None and not _rendering(win))
    grab("search")
    pane.search.setText("")
    _wait(app, lambda: not pane.ranked)
    blind_scene(app, win, ids[0])
    grab("blind")
    win.blind.set_enabled(False)
    _wait(app, lambda: not win.runner.busy("candidates-load"))
    win.theme.apply("dark", save=False)
    pane.select_candidate(ids[0])
    _wait(app, lambda: pane.preview.image is not None and not _rendering(win))
    grab("candidates-dark")
    win.theme.apply("system", save=False)
    win.status.refresh()
    win.show_pane(CHAT)
    chat_scene(app, win)
    grab("chat")
    dlg = job_scene(app, win)
    grab("jobmatch", dlg, QSize(1300, 820))
    dlg.close()
    dlg = win.open_settings()
    grab("settings", dlg, dlg.sizeHint())
    dlg.reject()
    win.close()
    services.close()
    return shots


def main(argv: list[str] | None = None) -> int:
    """Command-line entry: output folder (default docs/screenshots)."""
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else Path("docs/screenshots")
    cvs = Path(args[1]) if len(args) > 1 else None
    for p in render(out, cvs):
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
