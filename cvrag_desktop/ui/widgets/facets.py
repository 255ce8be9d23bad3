"""The facet panel of the Candidates pane: skills with counts, years, degree, language, field of work,
credential, employer, and the screening filters (status, tag, rating)."""

from __future__ import annotations

from collections import Counter

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from cvrag_desktop.app.rules import STATUS_LABELS, STATUSES
from cvrag_desktop.ui.models.candidate_filter import (
    OPEN,
    person_credentials,
    person_fields,
    person_languages,
    person_skills,
)

ANY = -1
DEGREE_CHOICES = (("Any degree", 0), ("Bachelor or higher", 2), ("Master or higher", 3), ("Doctorate", 4))
STATUS_CHOICES = (("Any status", ""), ("In process", OPEN),
                  *((STATUS_LABELS[s], s) for s in STATUSES))
RATING_CHOICES = (("Any rating", 0), *((f"{'★' * n} or more", n) for n in range(1, 5)), ("★★★★★", 5))  # 5 is the top


class FacetPanel(QWidget):
    """Emits ``changed`` with the proxy filter values whenever a facet changes."""

    changed = Signal(dict)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._quiet = False
        self.skill_filter = QLineEdit(placeholderText="Filter skills…")
        self.skills = QListWidget()
        self.skills.setToolTip("Tick skills: candidates must have all ticked skills. Each count is how many "
                               "candidates would be shown with that skill ticked too (the other filters apply).")
        self.min_years = self._years_box("Minimum years of experience")
        self.max_years = self._years_box("Maximum years of experience")
        self.degree = QComboBox()
        for label, level in DEGREE_CHOICES:
            self.degree.addItem(label, level)
        self.language = QComboBox()
        self.language.addItem("Any language", "")
        self.work_field = QComboBox()
        self.work_field.addItem("Any field", "")
        self.work_field.setToolTip("Fields of work read from the roles' titles (a nurse) and employers (a bank)")
        self.credential = QComboBox()
        self.credential.addItem("Any credential", "")
        self.credential.setToolTip("Licences and certifications the CVs list (RN, CPA, ACLS…)")
        self.employer = QLineEdit(placeholderText="Worked at… (any employer)")
        self.status = self._combo(STATUS_CHOICES)
        self.tag = QComboBox()
        self.tag.addItem("Any tag", "")
        self.rating = self._combo(RATING_CHOICES)
        self.status.setItemData(1, "Everyone not hired and not rejected", Qt.ItemDataRole.ToolTipRole)
        self.reset_btn = QPushButton("Clear filters")
        for combo in (self.degree, self.language, self.work_field, self.credential, self.status, self.tag,
                      self.rating):  # long choices: no wide sidebar
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(8)
        form = QFormLayout()
        years = QHBoxLayout()  # one row for both bounds: the panel fits a 700-pixel-high screen
        years.setContentsMargins(0, 0, 0, 0)
        years.addWidget(self.min_years, 1)
        years.addWidget(QLabel("–"))
        years.addWidget(self.max_years, 1)
        form.addRow("Years", years)
        form.addRow("Degree", self.degree)
        form.addRow("Language", self.language)
        form.addRow("Field", self.work_field)
        form.addRow("Credential", self.credential)
        form.addRow("Employer", self.employer)
        form.addRow("Status", self.status)
        form.addRow("Tag", self.tag)
        form.addRow("Rating", self.rating)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("<b>Skills</b>"))
        layout.addWidget(self.skill_filter)
        layout.addWidget(self.skills, 1)
        layout.addLayout(form)
        layout.addWidget(self.reset_btn)
        self.skills.itemChanged.connect(self._emit)
        self.skill_filter.textChanged.connect(self._filter_skill_list)
        for w in (self.min_years, self.max_years):
            w.valueChanged.connect(self._emit)
        for combo in (self.degree, self.language, self.work_field, self.credential, self.status, self.tag,
                      self.rating):
            combo.currentIndexChanged.connect(self._emit)
        self.employer.textChanged.connect(self._emit)
        self.reset_btn.clicked.connect(self.reset)

    @staticmethod
    def _combo(choices) -> QComboBox:
        box = QComboBox()
        for label, value in choices:
            box.addItem(label, value)
        return box

    @staticmethod
    def _years_box(tip: str) -> QSpinBox:
        box = QSpinBox()
        box.setRange(ANY, 60)
        box.setValue(ANY)
        box.setSpecialValueText("Any")
        box.setToolTip(tip)
        return box

    def set_rows(self, rows: list[dict]) -> None:
        """Rebuild the skill and language choices (with counts) from the candidates, keeping selections.

        ``changed`` is emitted only when a choice vanished with the rows (a ticked skill no one
        has now): the caller refreshes counts after a reload anyway, and a second, identical
        re-filter and recount of every row was the longest GUI stall of an import.
        """
        self._quiet = True
        before = self.values()
        ticked = self.selected_skills()
        self.skills.setUpdatesEnabled(False)  # hundreds of items: one repaint, not one per item
        try:
            self._rebuild(rows, ticked)
        finally:
            self.skills.setUpdatesEnabled(True)
            self._quiet = False
        if self.values() != before:
            self._emit()

    def _rebuild(self, rows: list[dict], ticked: set[str]) -> None:
        skills = Counter(s for r in rows for s in dict.fromkeys(person_skills(r)))
        self.skills.clear()
        for name, n in sorted(skills.items(), key=lambda kv: (-kv[1], kv[0].casefold())):
            item = QListWidgetItem(f"{name} ({n})")
            item.setData(Qt.ItemDataRole.UserRole, name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if name in ticked else Qt.CheckState.Unchecked)
            self.skills.addItem(item)
        current = self.language.currentData()
        langs = Counter(x for r in rows for x in dict.fromkeys(person_languages(r)))
        self.language.clear()
        self.language.addItem("Any language", "")
        for name, n in sorted(langs.items(), key=lambda kv: (-kv[1], kv[0].casefold())):
            self.language.addItem(f"{name} ({n})", name)
        idx = self.language.findData(current)
        self.language.setCurrentIndex(max(idx, 0))
        for combo, values, empty in ((self.work_field, person_fields, "Any field"),
                                     (self.credential, person_credentials, "Any credential")):
            chosen = combo.currentData()
            counts = Counter(x for r in rows for x in dict.fromkeys(values(r)))
            combo.clear()
            combo.addItem(empty, "")
            for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].casefold())):
                combo.addItem(f"{name} ({n})", name)
            combo.setCurrentIndex(max(combo.findData(chosen), 0))
        self.set_tags(sorted({t for r in rows for t in r.get("tags") or []}, key=str.casefold))
        self._filter_skill_list(self.skill_filter.text())

    def set_tags(self, tags: list[str]) -> None:
        """The tags to choose from (the current choice is kept)."""
        quiet, self._quiet = self._quiet, True
        current = self.tag.currentData()
        self.tag.clear()
        self.tag.addItem("Any tag", "")
        for t in dict.fromkeys([*tags, *([current] if current else [])]):
            self.tag.addItem(t, t)
        self.tag.setCurrentIndex(max(0, self.tag.findData(current)))
        self._quiet = quiet

    def set_counts(self, skills: Counter, languages: Counter) -> None:
        """Show counts under the other active filters (see ``CandidateFilterProxy.facet_counts``).

        A skill no kept candidate has is greyed; the others keep the palette's own text colour,
        so a switch between light and dark stays readable (a palette change re-applies this).
        """
        self._counts = (skills, languages)
        self._quiet = True
        try:
            dim = self.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
            self.skills.setUpdatesEnabled(False)
            for i in range(self.skills.count()):
                item = self.skills.item(i)
                name = item.data(Qt.ItemDataRole.UserRole)
                n = skills.get(name, 0)
                text = f"{name} ({n})"
                if item.text() != text:  # an unchanged item costs no model signal
                    item.setText(text)
                tint = dim if n == 0 else None
                if item.data(Qt.ItemDataRole.ForegroundRole) != tint:  # a palette switch changes dim
                    item.setData(Qt.ItemDataRole.ForegroundRole, tint)
            for i in range(1, self.language.count()):
                name = self.language.itemData(i)
                self.language.setItemText(i, f"{name} ({languages.get(name, 0)})")
        finally:
            self.skills.setUpdatesEnabled(True)
            self._quiet = False

    def changeEvent(self, event: QEvent) -> None:
        """A palette switch (View > Appearance) re-tints the greyed skills."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and getattr(self, "_counts", None) is not None:
            self.set_counts(*self._counts)

    def _filter_skill_list(self, text: str) -> None:
        needle = text.casefold().strip()
        for i in range(self.skills.count()):
            item = self.skills.item(i)
            item.setHidden(bool(needle) and needle not in item.text().casefold())

    def selected_skills(self) -> set[str]:
        """The ticked skills."""
        out = set()
        for i in range(self.skills.count()):
            item = self.skills.item(i)
            if item.checkState() == Qt.CheckState.Checked:
                out.add(item.data(Qt.ItemDataRole.UserRole))
        return out

    def set_skill_checked(self, name: str, checked: bool = True) -> bool:
        """Tick (or untick) a skill by name; False if no candidate has it."""
        for i in range(self.skills.count()):
            item = self.skills.item(i)
            if item.data(Qt.ItemDataRole.UserRole) == name:
                item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
                return True
        return False

    def values(self) -> dict:
        """The filter values for :class:`CandidateFilterProxy`."""
        return {
            "skills": self.selected_skills(),
            "min_years": None if self.min_years.value() == ANY else float(self.min_years.value()),
            "max_years": None if self.max_years.value() == ANY else float(self.max_years.value()),
            "min_degree": int(self.degree.currentData() or 0),
            "language": self.language.currentData() or "",
            "work_field": self.work_field.currentData() or "",
            "credential": self.credential.currentData() or "",
            "employer": self.employer.text().strip(),
            "status": self.status.currentData() or "",
            "tag": self.tag.currentData() or "",
            "min_rating": int(self.rating.currentData() or 0),
        }

    def set_values(self, values: dict) -> None:
        """Apply saved filter values (see :meth:`values`); unknown skills or languages are skipped."""
        self._quiet = True
        try:
            skills = set(values.get("skills") or [])
            for i in range(self.skills.count()):
                item = self.skills.item(i)
                item.setCheckState(Qt.CheckState.Checked if item.data(Qt.ItemDataRole.UserRole) in skills
                                   else Qt.CheckState.Unchecked)
            for box, key in ((self.min_years, "min_years"), (self.max_years, "max_years")):
                box.setValue(ANY if values.get(key) is None else int(values[key]))
            for combo, key in ((self.degree, "min_degree"), (self.language, "language"), (self.status, "status"),
                               (self.rating, "min_rating"), (self.work_field, "work_field"),
                               (self.credential, "credential")):
                combo.setCurrentIndex(max(0, combo.findData(values.get(key) or combo.itemData(0))))
            if values.get("tag") and self.tag.findData(values["tag"]) < 0:
                self.tag.addItem(values["tag"], values["tag"])
            self.tag.setCurrentIndex(max(0, self.tag.findData(values.get("tag") or "")))
            self.employer.setText(values.get("employer") or "")
        finally:
            self._quiet = False
        self._emit()

    def reset(self) -> None:
        """Clear every facet."""
        self._quiet = True
        for i in range(self.skills.count()):
            self.skills.item(i).setCheckState(Qt.CheckState.Unchecked)
        self.min_years.setValue(ANY)
        self.max_years.setValue(ANY)
        self.degree.setCurrentIndex(0)
        self.language.setCurrentIndex(0)
        for combo in (self.status, self.tag, self.rating, self.work_field, self.credential):
            combo.setCurrentIndex(0)
        self.employer.clear()
        self.skill_filter.clear()
        self._quiet = False
        self._emit()

    def _emit(self, *_args) -> None:
        if not self._quiet:
            self.changed.emit(self.values())
