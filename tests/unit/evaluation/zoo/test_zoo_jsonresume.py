"""Factory draft -> JSON Resume: every truth value the schema can hold is in the resume."""

from __future__ import annotations

from cvrag_desktop.evaluation.zoo.families import family
from cvrag_desktop.evaluation.zoo.jsonresume import resume_texts, to_resume
from cvrag_desktop.evaluation.zoo.plan import plan_family


def test_the_resume_keeps_every_truth_value():
    for doc in plan_family(family("jr-even"), 3, 9):
        cv, hints = doc.draft.cv, doc.draft.hints
        resume = to_resume(doc.draft)
        texts = set(resume_texts(resume))
        expected = [cv.name, *cv.emails, *cv.phones, cv.location, cv.summary,
                    *(hints.skill_label(s) for s in cv.skills)]
        if hints.show_headline:
            expected.append(cv.headline)
        for exp in cv.experiences:
            expected += [exp.title, exp.company, exp.start, *exp.bullets]
            expected += [exp.end] if exp.end and not exp.is_current else []
        for ed in cv.education:
            expected += [ed.degree, ed.institution, ed.start, ed.end]
        missing = [v for v in expected if v and v not in texts]
        assert not missing, (doc.doc_id, missing)
        assert all(any(link in t for t in texts) for link in cv.links)
        assert len(resume["certificates"]) == len(cv.certifications)
        assert all(c["name"] in cv.certifications for c in resume["certificates"])
        assert len(resume["languages"]) == len(cv.languages)
        assert all(not w.get("endDate") for w, e in zip(reversed(resume["work"]) if hints.newest_first
                                                          else resume["work"], cv.experiences, strict=True)
                   if e.is_current)


def test_roles_are_listed_newest_first_as_json_resume_does():
    doc = next(d for d in plan_family(family("jr-flat"), 4, 6) if d.draft.hints.newest_first)
    starts = [w["startDate"] for w in to_resume(doc.draft)["work"]]
    assert starts == sorted(starts, reverse=True)
    assert set(to_resume(doc.draft)) <= {"basics", "work", "education", "skills", "languages", "certificates", "meta"}


def test_a_theme_that_needs_a_key_gets_it_empty_and_other_themes_get_the_same_resume():
    for doc in plan_family(family("jr-orbit"), 5, 4):
        plain = to_resume(doc.draft)
        assert to_resume(doc.draft, "jsonresume-theme-even") == plain  # the first eleven themes: unchanged input
        orbit = to_resume(doc.draft, "jsonresume-theme-orbit")
        assert all(s["level"] == "" for s in orbit["skills"])
        assert [s["name"] for s in orbit["skills"]] == [s["name"] for s in plain["skills"]]
        classy = to_resume(doc.draft, "jsonresume-theme-classy")
        assert classy["basics"]["label"] == plain["basics"].get("label", "")
        assert classy["basics"].get("profiles", []) == plain["basics"]["profiles"]
        assert bool(classy["basics"].get("profiles")) == ("profiles" in classy["basics"])
