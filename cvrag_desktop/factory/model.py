"""Data passed between factory stages: the plan for one CV and the draft it becomes.

A :class:`CVSpec` is decided up front for the whole batch (profile, locale, layout,
hard cases), so every CV can be rebuilt alone from its spec. A :class:`CVDraft` carries
the ground truth (:class:`~cvrag_desktop.domain.NormalizedCV`) plus the presentation
choices (:class:`RenderHints`) the renderer needs; the renderer reads, never changes it.
"""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, ConfigDict, Field

from cvrag_desktop.domain import NormalizedCV


class CVSpec(BaseModel):
    """The plan for one CV of a batch; everything random about it derives from ``rng_key``."""

    model_config = ConfigDict(extra="forbid")

    index: int
    batch_seed: int
    cv_id: str
    person_id: str
    locale: str
    layout: str
    font: str
    as_of: dt.date
    profile_id: str | None = None
    hard_cases: list[str] = Field(default_factory=list)
    update_of: int | None = None  # index of the CV this one is a newer version of
    name_like: int | None = None  # index of the CV whose name this one nearly repeats

    @property
    def rng_key(self) -> str:
        """Seed material for this CV's random generator (stable across runs)."""
        return f"cvfactory:{self.batch_seed}:{self.index}"


class DateStyle(BaseModel):
    """How one period is printed: style (see ``dates.DATE_STYLES``), separator, "since" form."""

    model_config = ConfigDict(extra="forbid")

    style: str
    sep: str = " – "
    since_form: bool = False


class RenderHints(BaseModel):
    """Presentation decisions: language, headings, printed dates, skill spellings, order."""

    model_config = ConfigDict(extra="forbid")

    lang: str
    heading_lang: str
    headings: dict[str, str]
    labels: dict[str, str]
    role_styles: list[DateStyle]  # one per experience, same order as the ground truth
    edu_styles: list[DateStyle]  # one per education entry
    present: str = "Present"
    skill_display: dict[str, str] = Field(default_factory=dict)  # ground-truth skill -> printed form
    spoken: list[str] = Field(default_factory=list)  # printed "Inglés (C1)" lines
    certifications: list[str] = Field(default_factory=list)  # printed, sometimes with a year
    newest_first: bool = True
    show_headline: bool = True
    accent: tuple[float, float, float] = (0.15, 0.3, 0.5)
    font_size: float = 9.5
    reading: str = ""  # a Japanese name's reading in hiragana (the 履歴書's ふりがな); "" otherwise

    def skill_label(self, skill: str) -> str:
        """How a ground-truth skill is printed on this CV."""
        return self.skill_display.get(skill, skill)


class CVDraft(BaseModel):
    """One synthetic CV between stages: validated ground truth + how to print it."""

    model_config = ConfigDict(extra="forbid")

    spec: CVSpec
    profile_id: str
    tier: str
    cv: NormalizedCV
    hints: RenderHints
    hard_cases: list[str] = Field(default_factory=list)
    related_to: str | None = None
    prose_source: str = "template"

    def ground_truth(self) -> dict:
        """The JSON written next to the PDF: NormalizedCV fields at top level plus metadata."""
        data = self.cv.model_dump(mode="json")
        data.update(
            {
                "cv_id": self.spec.cv_id,
                "person_id": self.spec.person_id,
                "profile": self.profile_id,
                "seniority": self.tier,
                "locale": self.spec.locale,
                "layout": self.spec.layout,
                "font": self.spec.font,
                "seed": self.spec.batch_seed,
                "index": self.spec.index,
                "as_of": self.spec.as_of.isoformat(),
                "hard_cases": sorted(self.hard_cases),
                "related_to": self.related_to,
                "prose_source": self.prose_source,
                "rendered_skills": [self.hints.skill_label(s) for s in self.cv.skills],
                "heading_language": self.hints.heading_lang,
            }
        )
        return data
