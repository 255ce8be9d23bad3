"""LLM enrichment is kept only when every fact comes back unchanged."""

from __future__ import annotations

import json

import pytest

from cvrag_desktop.factory.enrich import EnrichmentOutput, enrich_with_llm, mentioned_skills


def _echo(draft, **changes):
    """A fake LLM: echoes the facts, rewrites the prose, then applies ``changes``."""

    def complete(system: str, user: str, schema):
        payload = json.loads(user)
        assert schema is EnrichmentOutput and "Copy name" in system
        roles = [
            {k: r[k] for k in ("title", "company", "start", "end")} | {"bullets": ["Led the team with care."]}
            for r in payload["roles"]
        ]
        out = {"name": payload["name"], "summary": "A calm and reliable professional.", "roles": roles}
        for key, value in changes.items():
            if key.startswith("role0_"):
                out["roles"][0][key[6:]] = value
            else:
                out[key] = value
        return out

    return complete


def test_faithful_rewrite_is_kept(draft_factory):
    draft = draft_factory(4, locale="en_US")
    new, why = enrich_with_llm(draft, _echo(draft))
    assert why is None and new.prose_source == "llm"
    assert new.cv.summary == "A calm and reliable professional."
    assert all(e.bullets == ["Led the team with care."] for e in new.cv.experiences)
    assert [e.company for e in new.cv.experiences] == [e.company for e in draft.cv.experiences]


@pytest.mark.parametrize(
    "changes",
    [
        {"name": "Someone Else"},
        {"role0_company": "Evil Corp"},
        {"role0_start": "1999-01"},
        {"role0_title": "Chief Everything Officer"},
        {"summary": "Expert in Kubernetes, Salesforce and SolidWorks."},
        {"summary": "Worked there since 1987."},
        {"summary": "Write to me at someone@example.com"},
        {"role0_bullets": []},
    ],
)
def test_changed_facts_are_discarded(draft_factory, changes):
    draft = draft_factory(4, locale="en_US", profile_id="teacher")
    new, why = enrich_with_llm(draft, _echo(draft, **changes))
    assert why and why.startswith("facts changed")
    assert new is draft and new.prose_source == "template"


def test_missing_role_is_discarded(draft_factory):
    draft = draft_factory(6, locale="en_GB")

    def complete(system, user, schema):
        out = _echo(draft)(system, user, schema)
        out["roles"] = out["roles"][:-1] if len(out["roles"]) > 1 else []
        return out

    assert enrich_with_llm(draft, complete)[1].startswith("facts changed")


@pytest.mark.parametrize("reply", ["not json at all", {"summary": 3}, 42])
def test_invalid_replies_are_discarded(draft_factory, reply):
    draft = draft_factory(2)
    new, why = enrich_with_llm(draft, lambda s, u, m: reply)
    assert why and why.startswith("invalid reply") and new is draft


def test_llm_errors_are_discarded(draft_factory):
    draft = draft_factory(2)

    def boom(system, user, schema):
        raise ConnectionError("model is asleep")

    new, why = enrich_with_llm(draft, boom)
    assert new is draft and "model is asleep" in why


def test_json_string_reply_and_known_skills_are_fine(draft_factory):
    draft = draft_factory(8, locale="en_US", profile_id="devops_sre")
    skill = draft.hints.skill_label(draft.cv.skills[0])

    def complete(system, user, schema):
        out = _echo(draft)(system, user, schema)
        out["summary"] = f"Hands-on with {skill} every day."
        return json.dumps(out)

    new, why = enrich_with_llm(draft, complete)
    assert why is None and skill in new.cv.summary


def test_mentions_ignore_parts_of_longer_skills():
    assert mentioned_skills("Negociación con proveedores y SAP") == {"Negociación con proveedores", "SAP"}
    assert "Go" not in mentioned_skills("Go-to-market plans")
