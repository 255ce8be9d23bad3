"""Factory draft -> RenderCV input: every printable value, markup kept literal, a fixed date, honest gaps."""

from __future__ import annotations

import json

from cvrag_desktop.evaluation.zoo.families import family
from cvrag_desktop.evaluation.zoo.plan import plan_family, printed_record, truth_record
from cvrag_desktop.evaluation.zoo.rendercv import _text, not_printed, to_rendercv


def test_the_input_holds_every_printed_value_under_the_cvs_own_headings():
    for doc in plan_family(family("rcv-classic"), 8, 6):
        pr = printed_record(doc.draft)
        data = to_rendercv(doc.draft, "classic", pr)
        dumped = json.dumps(data, ensure_ascii=False)
        values = [x for r in pr["roles"] for x in (r["title"], r["company"], *r["bullets"])]
        values += [x for e in pr["education"] for x in (e["degree"], e["institution"])]
        values += [*pr["skills"], *pr["languages"], *pr["certifications"]]
        missing = [v for v in values if v and json.dumps(_text(v), ensure_ascii=False)[1:-1] not in dumped]
        assert not missing, missing
        assert data["cv"]["name"] == pr["name"]
        assert pr["headings"]["experience"].replace(" ", "_") in data["cv"]["sections"]
        assert data["rendercv_settings"]["date"] == doc.draft.spec.as_of.isoformat()
        assert data["design"] == {"theme": "classic"}
        truth = truth_record(doc, 8)
        assert truth["zoo"]["not_printed"] == not_printed(doc.draft)
        assert ("headline" in not_printed(doc.draft)) == bool(doc.draft.cv.headline)


def test_markup_characters_are_escaped():
    assert _text("C# and *bold* [link] $x$") == "C\\# and \\*bold\\* \\[link\\] \\$x\\$"
