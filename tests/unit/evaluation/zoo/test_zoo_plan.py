"""The zoo's content plan: deterministic for a seed, independent per family, truth in the factory's shape."""

from __future__ import annotations

import json

from cvrag_desktop.domain import NormalizedCV
from cvrag_desktop.evaluation.zoo.families import family
from cvrag_desktop.evaluation.zoo.plan import doc_id, family_seed, plan_family, truth_record


def _truths(name: str, seed: int, count: int) -> list[str]:
    return [json.dumps(truth_record(d, seed), sort_keys=True) for d in plan_family(family(name), seed, count)]


def test_the_same_seed_gives_the_same_documents_and_another_seed_others():
    first = _truths("jr-even", 5, 3)
    assert first == _truths("jr-even", 5, 3)
    assert first != _truths("jr-even", 6, 3)
    assert _truths("jr-even", 5, 2) == first[:2]  # asking for fewer documents keeps the first ones
    assert family_seed(5, "jr-even") != family_seed(5, "jr-flat")
    assert family_seed(5, "jr-even", 0) != family_seed(5, "jr-even", 1)
    assert doc_id(5, "jr-even", 0) == "jr-even-s5-0001"


def test_a_document_is_the_same_whatever_the_count_asked():
    # the factory pairs CVs inside a batch: fx-builder's first documents changed with the count before blocks
    five, seventy = _truths("fx-builder", 36, 5), _truths("fx-builder", 36, 70)
    assert _truths("fx-builder", 36, 2) == five[:2] and five == seventy[:5]
    assert len(seventy) == 70 and json.loads(seventy[69])["cv_id"] == "fx-builder-s36-0070"


def test_families_cycle_locales_and_the_truth_has_the_generate_shape():
    docs = plan_family(family("word-oneline"), 11, 9)
    assert len({d.draft.spec.locale for d in docs}) >= 8  # the factory's locales, one per document in turn
    truth = truth_record(docs[0], 11)
    cv = NormalizedCV.model_validate({k: v for k, v in truth.items() if k in NormalizedCV.model_fields})
    assert cv.name and cv.experiences
    for key in ("cv_id", "person_id", "profile", "locale", "as_of", "rendered_skills", "heading_language"):
        assert key in truth
    zoo = truth["zoo"]
    assert (zoo["family"], zoo["engine"], zoo["held_out"]) == ("word-oneline", "word", False)
    assert truth["cv_id"] == docs[0].doc_id
    assert [r["title"] for r in zoo["printed"]["roles"]] == [
        e["title"] for e in (reversed(truth["experiences"]) if zoo["printed"]["newest_first"] else truth["experiences"])]
    json.dumps(truth)  # plain JSON
