"""Helpers for factory tests: build drafts directly from specs."""

from __future__ import annotations

import datetime as dt

import pytest

from cvrag_desktop.factory.builder import build_base_cv
from cvrag_desktop.factory.enrich import apply_template_prose
from cvrag_desktop.factory.model import CVDraft, CVSpec

AS_OF = dt.date(2026, 11, 1)


def make_spec(
    index: int = 0,
    *,
    locale: str = "es_ES",
    layout: str = "classic",
    font: str = "vera",
    profile_id: str | None = None,
    hard_cases: list[str] | None = None,
    seed: int = 11,
) -> CVSpec:
    """A spec for one CV outside a batch."""
    return CVSpec(
        index=index,
        batch_seed=seed,
        cv_id=f"cv-t-{index}",
        person_id=f"p-{index}",
        locale=locale,
        layout=layout,
        font=font,
        as_of=AS_OF,
        profile_id=profile_id,
        hard_cases=hard_cases or [],
    )


def make_draft(index: int = 0, **kwargs) -> CVDraft:
    """A fully built draft (facts, template prose, derived fields)."""
    spec = make_spec(index, **kwargs)
    draft = apply_template_prose(build_base_cv(spec))
    return draft.model_copy(update={"cv": draft.cv.with_derived(spec.as_of)})


@pytest.fixture
def draft_factory():
    """Build drafts by index and options."""
    return make_draft


@pytest.fixture
def spec_factory():
    """Build specs by index and options."""
    return make_spec
