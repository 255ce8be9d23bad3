"""Chat pane: conversations with the assistant, streamed drafts, cited answers, PDF preview.

``AssistantService.ask`` runs in a worker (key ``chat-ask``); its ``on_token`` pieces
travel through the worker's ``item`` signal and grow a draft card that says it is not
checked; the returned (validated) answer replaces the draft. A newer question cancels
the older (``should_cancel``) and waits for it to leave the thread's memory before it
runs, so two turns never write the same conversation at once. Citation chips open the
cited page in the preview with the cited text highlighted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App

import threading
import uuid

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QInputDialog,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from cvrag_desktop.errors import Cancelled
from cvrag_desktop.ui.blind_mode import blind_result, blind_titles, preview_boxes, shown_turns
from cvrag_desktop.ui.citations import find_tiers, resolve_pdf
from cvrag_desktop.ui.panes.job_match import JobMatchDialog
from cvrag_desktop.ui.shell.errors import InlineMessage, report_error
from cvrag_desktop.ui.shell.fit import SplitterShares
from cvrag_desktop.ui.shell.tasks import TaskContext, TaskRunner
from cvrag_desktop.ui.widgets.chat_view import ChatTranscript, MessageCard, suggestion_link
from cvrag_desktop.ui.widgets.pdf_preview import PdfPreview
from cvrag_desktop.ui.widgets.thread_list import ThreadList

ASK = "chat-ask"
SUGGESTIONS = ("Who speaks German?", "Who has the most experience?", "Who built data pipelines?",
               "Python developers with 5+ years")
EXAMPLES = ("<p>Ask about the imported CVs; every answer cites the CV lines it rests on. "
            "Click a question to ask it:</p><ul>"
            + "".join(f"<li>{suggestion_link(q)}</li>" for q in SUGGESTIONS) + "</ul>")
DETERMINISTIC = ("No language model — deterministic mode: answers are computed over the catalog or quoted "
                 "from the CVs by rules. Connect Ollama in Settings for written answers.")


class ChatPane(QWidget):
    """Threads | conversation + question box | PDF preview."""

    answered = Signal(dict)  # the result dict shown
    threads_loaded = Signal(int)

    blind = None  # the main window's BlindMode (ui/blind_mode.py): answers hide identities when it is on

    def __init__(self, services: App, runner: TaskRunner, qsettings: QSettings | None = None, parent=None) -> None:
        super().__init__(parent)
        self.services = services
        self.runner = runner
        self.qsettings = qsettings
        self.thread_id = uuid.uuid4().hex[:12]  # a new conversation until its first question
        self.llm_up: bool | None = None
        self._seq = 0
        self._pending: MessageCard | None = None
        self._draft = ""
        self._turn_lock = threading.Lock()
        self._results: dict[str, dict] = {}  # answer text → full result as the assistant returned it (this session)
        # the conversation shown, as the assistant returned it: (role, question or saved message, full result);
        # the transcript is drawn from it, redacted or not, and drawn again when blind screening switches
        self._turns: list[tuple[str, object, dict | None]] = []
        self.job_dialog = None
        self._build()

    def _build(self) -> None:
        self.message = InlineMessage(self)
        self.mode_banner = InlineMessage(self)
        self.threads = ThreadList(self)
        self.threads.thread_selected.connect(self.open_thread)
        self.threads.new_requested.connect(self.new_chat)
        self.threads.rename_requested.connect(self.rename_thread)
        self.threads.delete_requested.connect(self.delete_thread)
        self.transcript = ChatTranscript(self)
        self.transcript.set_empty_text(EXAMPLES)
        self.transcript.citation_clicked.connect(self.open_citation)
        self.transcript.suggestion_clicked.connect(self.ask)  # an example question, asked as it reads
        self.input = QLineEdit(placeholderText="Ask about your candidates…  (Enter to send)", clearButtonEnabled=True)
        self.input.setMaxLength(2000)
        self.input.returnPressed.connect(lambda: self.ask())
        self.send_btn = QPushButton("Ask")
        self.send_btn.clicked.connect(lambda: self.ask())
        self.match_btn = QPushButton("Match a job description…")
        self.match_btn.clicked.connect(self.open_job_match)
        row = QHBoxLayout()
        row.addWidget(self.input, 1)
        row.addWidget(self.send_btn)
        self.threads.layout().addWidget(self.match_btn)  # beside the conversations: the question box keeps its width
        center = QWidget()
        col = QVBoxLayout(center)
        col.setContentsMargins(0, 0, 0, 0)
        col.addWidget(self.transcript, 1)
        col.addLayout(row)
        self.preview = PdfPreview(self.runner)
        self.preview.clear("Click a citation to see the cited lines in the CV.")
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        for w in (self.threads, center, self.preview):
            self.splitter.addWidget(w)
        self.shares = SplitterShares(self.splitter, (0.18, 0.47, 0.35))  # these proportions at any width
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addWidget(self.mode_banner)
        layout.addWidget(self.splitter, 1)
        if self.qsettings is not None and self.qsettings.value("chat/splitter"):
            self.splitter.restoreState(self.qsettings.value("chat/splitter"))
            self.shares.stop()

    def save_state(self) -> None:
        """Persist splitter sizes."""
        if self.qsettings is not None:
            self.qsettings.setValue("chat/splitter", self.splitter.saveState())

    # ---- threads -------------------------------------------------------------------------
    def refresh(self) -> None:
        """Reload the conversation list and the model state in a worker."""
        svc = self.services

        blind = self.blind if self.blind is not None and self.blind.enabled else None

        def load(ctx: TaskContext):
            a = svc.chat
            threads = a.threads()
            if blind is not None:  # blind screening: a title keeps the name typed in its first question
                threads = blind_titles(blind, threads, svc.people.list_people(with_documents=True))
            return threads, a.llm_available()

        self.runner.start("chat-threads", load, on_result=self._threads_loaded, on_error=self._error)

    def blind_changed(self, *_args) -> None:
        """Blind screening switched (either way) or someone revealed: the conversation list, the open
        conversation (cards, citation chips) and the citation preview are shown again under the new state."""
        if self._live_blind() is not None:
            self.threads.cover()  # titles typed with names: hidden until the list is read again
            if self._pending is not None and self.busy():  # the draft shown so far may name people
                self._pending.set_draft("Writing the answer (blind screening: shown when complete)…")
        self.refresh()
        self._redraw()

    def _live_blind(self):
        """The BlindMode when identities are hidden now, else None."""
        return self.blind if self.blind is not None and self.blind.enabled else None

    def _redraw(self) -> None:
        """Draw the conversation again from its turns, redacted in a worker when blind screening is on (the
        cards are covered at once, so a name never lingers)."""
        turns, blind, svc, thread_id = list(self._turns), self._live_blind(), self.services, self.thread_id
        if not turns:
            return
        if blind is not None:
            for card in self.transcript.cards:
                if card is not self._pending:
                    card.cover("Blind screening: hiding identities…")
        gen = self._generation()
        self.runner.start("chat-redraw", lambda ctx: (thread_id, gen, shown_turns(blind, svc, turns)),
                          on_result=self._show_turns, on_error=self._error)

    def _generation(self) -> int:
        return self.blind.generation if self.blind is not None else 0

    def _show_turns(self, result) -> None:
        thread_id, gen, shown = result
        if thread_id != self.thread_id:
            return
        pending = self._pending
        self.transcript.clear(keep=pending)
        for role, message, full in shown:
            if role == "user":
                self.transcript.add("user", str(message or ""))
            elif full is not None:
                self.transcript.add("assistant").set_result(full)
            else:
                self.transcript.add("assistant").set_history(message or {})
        if pending is not None:  # the question still being answered stays last
            self.transcript.move_last(pending)
        if gen != self._generation():  # switched again meanwhile
            self._redraw()

    def _threads_loaded(self, result) -> None:
        threads, llm_up = result
        self.threads.set_threads(threads, self.thread_id)
        self._set_llm(llm_up)
        self.threads_loaded.emit(len(threads))

    def _set_llm(self, up: bool) -> None:
        self.llm_up = up
        if up:
            self.mode_banner.clear_message()
        else:
            self.mode_banner.show_message(DETERMINISTIC, "info")

    def new_chat(self) -> None:
        """Ctrl+N: a fresh conversation (listed once it has a question)."""
        self._supersede()
        self.thread_id = uuid.uuid4().hex[:12]
        self._turns = []
        self.transcript.clear()
        self.threads.select(None)
        self.message.clear_message()
        self.input.setFocus()

    def open_thread(self, thread_id: str) -> None:
        """Show a saved conversation (history loaded in a worker)."""
        self._supersede()
        self.thread_id = thread_id
        self.threads.select(thread_id)
        svc, results = self.services, dict(self._results)
        blind = self._live_blind()
        gen = self._generation()

        def load(ctx):
            turns = [("user", m.get("content") or "", None) if m.get("role") == "user" else
                     ("assistant", m, results.get(m.get("content") or "")) for m in svc.chat.history(thread_id)]
            # blind screening: saved answers are redacted like new ones
            return thread_id, gen, turns, shown_turns(blind, svc, turns)

        self.runner.start("chat-history", load, on_result=self._show_history, on_error=self._error)

    def _show_history(self, result) -> None:
        thread_id, gen, turns, shown = result
        if thread_id != self.thread_id:
            return
        self._turns = turns
        self.transcript.clear()
        self._show_turns((thread_id, gen, shown))

    def prompt_text(self, title: str, label: str, text: str) -> str | None:
        """Ask for a line of text (tests replace this)."""
        value, ok = QInputDialog.getText(self, title, label, text=text)
        return value if ok else None

    def confirm(self, title: str, text: str) -> bool:
        """Ask a yes/no question (tests replace this)."""
        answer = QMessageBox.question(self, title, text, QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                      QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def rename_thread(self, thread_id: str) -> None:
        """Rename a conversation."""
        current = next((t for i, t in zip(self.threads.ids(), self.threads.titles(), strict=True) if i == thread_id), "")
        title = self.prompt_text("Rename conversation", "Title:", current)
        if title is None:
            return
        svc = self.services
        self.runner.run(lambda ctx: svc.chat.rename_thread(thread_id, title),
                        on_result=lambda _r: self.refresh(), on_error=self._error)

    def delete_thread(self, thread_id: str) -> None:
        """Delete a conversation and its memory, after confirmation."""
        if not self.confirm("Delete conversation", "Delete this conversation? This cannot be undone."):
            return
        if thread_id == self.thread_id:
            self.new_chat()
        svc = self.services
        self.runner.run(lambda ctx: svc.chat.delete_thread(thread_id),
                        on_result=lambda _r: self.refresh(), on_error=self._error)

    # ---- asking --------------------------------------------------------------------------
    def busy(self) -> bool:
        """True while a question is being answered."""
        return self.runner.busy(ASK)

    def ask(self, question: str | None = None) -> None:
        """Send a question (the box's text by default); a newer question cancels the older."""
        question = " ".join((question if question is not None else self.input.text()).split())
        if not question:
            self.message.show_message("Type a question.", "info")
            return
        self.input.clear()
        self.message.clear_message()
        self._supersede()
        self._seq += 1
        seq, thread_id, svc, lock = self._seq, self.thread_id, self.services, self._turn_lock
        blind, gen = self._live_blind(), self._generation()
        self._turns.append(("user", question, None))
        self.transcript.add("user", question)
        self._pending, self._draft = self.transcript.add("assistant"), ""

        def run(ctx: TaskContext):
            with lock:  # the superseded turn leaves the conversation first
                if ctx.should_cancel():
                    raise Cancelled("A newer question replaced this one.")
                a = svc.chat
                raw = a.ask(question, thread_id=thread_id, on_token=ctx.item, should_cancel=ctx.should_cancel)
                result = raw if blind is None else blind_result(blind, raw, svc.people.list_people(with_documents=True))
                return raw, result, a.llm_available(), gen

        self.runner.start(ASK, run, on_item=lambda piece, s=seq: self._token(s, piece),
                          on_result=lambda r, s=seq: self._answer(s, r),
                          on_error=lambda e, s=seq: self._failed(s, e))

    def _supersede(self) -> None:
        if self._pending is not None and self.busy():
            self.runner.cancel(ASK)
            self._pending.set_cancelled()
        self._pending = None

    def _token(self, seq: int, piece: object) -> None:
        if seq != self._seq or self._pending is None:
            return
        if self.blind is not None and self.blind.enabled:  # a draft cannot be redacted reliably: wait for the answer
            self._pending.set_draft("Writing the answer (blind screening: shown when complete)…")
            return
        self._draft += str(piece)
        self._pending.set_draft(self._draft)

    def _answer(self, seq: int, payload) -> None:
        if seq != self._seq or self._pending is None:
            return
        raw, result, llm_up, gen = payload
        self._pending.set_result(result)
        self._pending = None
        self._results[raw.get("answer") or ""] = raw
        self._turns.append(("assistant", None, raw))
        self._set_llm(llm_up)
        if gen != self._generation():  # blind screening switched while the answer was written: draw it again
            self._redraw()
        self.answered.emit(result)
        self.refresh()

    def _failed(self, seq: int, exc: BaseException) -> None:
        if seq == self._seq and self._pending is not None:
            self._pending.set_failed("This question could not be answered; see the message above.")
            self._pending = None
        self._error(exc)

    # ---- citations and job matching -----------------------------------------------------------
    def open_citation(self, citation: dict) -> None:
        """Open the cited CV page in the preview with the cited text highlighted."""
        svc = self.services
        page = citation.get("page") or 0
        bbox = citation.get("bbox") if citation.get("page") is not None else None
        find = find_tiers(citation) if citation.get("page") is not None else None

        cid = citation.get("candidate_id")
        hide = self.blind is not None and bool(cid) and self.blind.hides(cid)

        def shown(out: tuple) -> None:
            path, self.preview.redactions = out
            self.preview.subject = (None, cid) if cid else None  # the preview follows blind screening itself
            if path is None:
                self.preview.clear("The CV file is not available (it may have been forgotten or moved).")
            else:
                self.preview.open(path, page, bbox, find)

        def load(ctx) -> tuple:
            boxes = preview_boxes(svc, cid) if hide else []
            return resolve_pdf(svc, citation), boxes  # blind screening: black boxes over the identity

        self.runner.start("chat-citation", load, on_result=shown, on_error=self._error)

    def open_job_match(self):
        """The "Match a job description" dialog (non-modal)."""
        if self.job_dialog is None:
            self.job_dialog = JobMatchDialog(self.services, self.runner, self)
            if self.blind is not None:  # blind screening: the matrix, its preview and its CSV hide identities
                self.job_dialog.set_blind(self.blind)
        self.job_dialog.show()
        self.job_dialog.raise_()
        return self.job_dialog

    def _error(self, exc: BaseException) -> None:
        report_error(exc, self.message, self, self.services.paths.log_dir)
