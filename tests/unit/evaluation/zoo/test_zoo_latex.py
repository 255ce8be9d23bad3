"""Factory draft -> LaTeX source for TeX Live's CV classes: specials escaped, every value kept, honest gaps.

No test runs XeLaTeX: the source is checked as text (a missing tool is a ZooToolError).
"""

from __future__ import annotations

import json
import re

import pytest

from cvrag_desktop.evaluation.zoo import latex
from cvrag_desktop.evaluation.zoo.build import _truth_bytes, engine_input
from cvrag_desktop.evaluation.zoo.engines import ZooToolError
from cvrag_desktop.evaluation.zoo.families import LATEX, LATEX_CLASSES, all_families, family
from cvrag_desktop.evaluation.zoo.plan import plan_family, printed_record

_UNESCAPED = re.compile(r"(?<!\\)[&%$#_]")


def test_every_latex_special_is_escaped_and_no_ligature_or_option_is_left():
    src = latex.tex_escape("R&D 50% $5 #1 a_b {x} ~y ^z \\w")
    assert src == (r"R\&D 50\% \$5 \#1 a\_b \{x\} \textasciitilde{}y \textasciicircum{}z \textbackslash{}w")
    assert latex.tex_escape("2019--2021 ``q'' <<a>>") == "2019-{}-2021 `{}`q'{}' <{}<a>{}>"
    assert latex.tex_escape("[draft] note").startswith("{}[")
    assert "\n" not in latex.tex_escape("two\nlines")


def _escaped_values(pr: dict) -> list[str]:
    values = [pr["name"], pr["headline"], pr["summary"], *pr["skills"], *pr["languages"], *pr["certifications"]]
    values += [x for r in pr["roles"] for x in (r["title"], r["company"], r["location"], r["period"], *r["bullets"])]
    values += [x for e in pr["education"] for x in (e["degree"], e["institution"], e["period"])]
    values += [pr["headings"][k] for k in ("experience", "education")]
    return [latex.tex_escape(v) for v in values if v]


@pytest.mark.parametrize("template", LATEX_CLASSES)
def test_the_source_of_every_class_keeps_every_printed_value(template):
    for doc in plan_family(family(f"tex-{template}"), 36, 6):
        pr = printed_record(doc.draft)
        src = latex.to_tex(template, doc.draft, pr)
        missing = [v for v in _escaped_values(pr) if v not in src]
        if template.startswith("moderncv-"):  # \name{first}{last}: the name in two arguments
            first, _, last = pr["name"].rpartition(" ")
            assert f"\\name{{{latex.tex_escape(first)}}}{{{latex.tex_escape(last)}}}" in src
            missing = [v for v in missing if v != latex.tex_escape(pr["name"])]
        if template == "europasscv":  # the class has no headline field: the truth says so
            missing = [v for v in missing if v != latex.tex_escape(pr["headline"] or "")]
        assert not missing, missing
        body = re.sub(r"\\[a-zA-Z]+|\\.", "", src)  # commands and escaped characters out
        assert not _UNESCAPED.search(body), _UNESCAPED.search(body)
        for contact in [*doc.draft.cv.emails, *doc.draft.cv.phones, *doc.draft.cv.links]:
            assert latex.tex_escape(contact) in src
        assert src.count("\\begin{") == src.count("\\end{")


def test_a_latex_family_is_registered_with_its_tools_and_its_truth_lists_what_it_cannot_print():
    fams = [f for f in all_families() if f.engine == LATEX]
    assert [f.name for f in fams] == [f"tex-{c}" for c in LATEX_CLASSES]
    assert len(fams) >= 7 and all(not f.held_out and f.version for f in fams)
    assert family("tex-moderncv-classic").needs == ("xelatex",)
    assert {"moderncv-classic", "moderncv-casual", "moderncv-banking", "moderncv-oldstyle", "moderncv-fancy",
            "europasscv"} <= set(LATEX_CLASSES)
    for name in ("tex-europasscv", "tex-moderncv-banking"):
        fam = family(name)
        for doc in plan_family(fam, 36, 6):
            given = engine_input(fam, doc)
            assert given.decode().startswith("\\documentclass")
            truth = json.loads(_truth_bytes(doc, 36, given))
            expected = ["headline"] if name == "tex-europasscv" and doc.draft.cv.headline else []
            assert truth["zoo"]["not_printed"] == expected == latex.not_printed(fam.template, doc.draft)


def test_an_unknown_class_and_a_missing_tool_fail_clearly(monkeypatch, tmp_path):
    doc = plan_family(family("tex-currvita"), 36, 1)[0]
    with pytest.raises(ValueError):
        latex.to_tex("no-such-class", doc.draft, printed_record(doc.draft))
    monkeypatch.setattr(latex, "which", lambda names: None)
    with pytest.raises(ZooToolError, match="xelatex"):
        latex.compile_tex("\\documentclass{article}", tmp_path / "x.pdf")
    failed = latex.render([("\\documentclass{article}", tmp_path / "y.pdf")])
    assert list(failed) == [str(tmp_path / "y.pdf")] and "not installed" in failed[str(tmp_path / "y.pdf")]
