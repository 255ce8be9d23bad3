"""Anonymous CVs and template placeholders: printed only, never a value of the truth."""

from __future__ import annotations

import json

import pymupdf

from cvrag_desktop.factory.hardcases import HardCaseConfig
from cvrag_desktop.factory.pipeline import DEFAULT_AS_OF, build_draft, plan_batch
from cvrag_desktop.factory.render import render_pdf
from cvrag_desktop.factory.render.base.common import printed_cv
from cvrag_desktop.factory.render.base.placeholders import LOREM, TEXTS


def _batch(config: HardCaseConfig, n: int = 40, layout: str = "classic"):
    specs = plan_batch(n, 8, locales=("en_GB", "de_DE", "es_ES"), layouts=(layout,), fonts=("vera",),
                       as_of=DEFAULT_AS_OF, hard_cases=True, hard_config=config)
    done: dict = {}
    for spec in specs:
        done[spec.index] = build_draft(spec, done)
    return list(done.values())


def test_template_hard_cases_are_off_by_default_and_leave_a_batch_as_it_was():
    plain = plan_batch(40, 8, locales=("en_GB",), layouts=("classic",), fonts=("vera",), as_of=DEFAULT_AS_OF,
                       hard_cases=True)
    again = plan_batch(40, 8, locales=("en_GB",), layouts=("classic",), fonts=("vera",), as_of=DEFAULT_AS_OF,
                       hard_cases=True, hard_config=HardCaseConfig())
    assert [s.model_dump() for s in plain] == [s.model_dump() for s in again]
    assert not any({"anonymous", "placeholders"} & set(s.hard_cases) for s in plain)
    with_template = plan_batch(40, 8, locales=("en_GB",), layouts=("classic",), fonts=("vera",),
                               as_of=DEFAULT_AS_OF, hard_cases=True,
                               hard_config=HardCaseConfig(anonymous=0.3, placeholders=0.3))
    strip = [sorted(set(s.hard_cases) - {"anonymous", "placeholders"}) for s in with_template]
    assert strip == [sorted(s.hard_cases) for s in plain]  # the other hard cases are drawn as before


def test_an_anonymous_cv_has_no_name_or_contacts_in_truth_or_print():
    drafts = [d for d in _batch(HardCaseConfig(anonymous=0.5)) if "anonymous" in d.hard_cases]
    assert drafts
    for draft in drafts:
        truth = draft.ground_truth()
        assert truth["name"] == "" and truth["emails"] == [] and truth["phones"] == [] and truth["links"] == []
        text = pymupdf.open(stream=render_pdf(draft, layout="classic", font="vera"), filetype="pdf")[0].get_text()
        assert "@" not in text
        assert draft.cv.experiences[-1].title in text  # the rest is printed as usual


def test_placeholders_are_printed_and_never_in_the_truth():
    drafts = [d for d in _batch(HardCaseConfig(anonymous=0.3, placeholders=0.6)) if "placeholders" in d.hard_cases]
    assert drafts
    every = {t for words in TEXTS.values() for kind in words.values() for t in kind} | set(LOREM)
    seen_name = False
    for draft in drafts:
        pc = printed_cv(draft, "vera")
        left = pc.extra["placeholders"].splitlines()
        assert left and any(x.startswith(LOREM) for x in left)
        truth = json.dumps(draft.ground_truth(), ensure_ascii=False)
        for text in left:
            assert text not in truth
        assert not any(t in truth for t in every if len(t) > 8)
        text = " ".join(pymupdf.open(stream=render_pdf(draft, layout="classic", font="vera"), filetype="pdf")[0]
                        .get_text().split())
        assert any(" ".join(x.split()) in text for x in left)
        seen_name |= not draft.cv.name and bool(pc.name)
    assert seen_name  # an anonymous CV that prints "Your Name" keeps the name "" in its truth
