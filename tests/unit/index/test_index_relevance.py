"""The relevance floor: people whose passages state too little of the query are weaker matches."""

from __future__ import annotations

from cvrag_desktop.index.relevance import content_words, found, split_by_floor


def _hit(cid: str, text: str) -> dict:
    return {"candidate_id": cid, "text": text}


def test_a_profession_nobody_has_leaves_no_main_match():
    """Dense ranking always finds a neighbour; the floor keeps none of them for 'pharmacist'."""
    hits = [_hit("a", "Registered nurse, intensive care"), _hit("b", "Backend developer, Python and Kafka")]
    main, weaker, _ = split_by_floor(hits, "pharmacist")
    assert main == [] and len(weaker) == 2


def test_stems_and_symbols():
    """'nurse' finds 'nursing'; 'Java' is not 'JavaScript'; 'C++' is a word of its own."""
    assert found("nurse", {"nursing"}) and found("nurse", {"nurses"})
    assert not found("java", {"javascript"})
    assert content_words("Senior C++ developer in Berlin") == ["senior", "c++", "developer", "berlin"]


def test_two_word_query_needs_both_words_from_one_person():
    """'project manager': a person whose passages say both words is main; one word alone is weaker."""
    hits = [_hit("a", "Project manager at a bank"), _hit("b", "Managed a team"), _hit("b", "Project lead"),
            _hit("c", "Store manager")]
    main, weaker, coverage = split_by_floor(hits, "project manager")
    assert {h["candidate_id"] for h in main} == {"a", "b"}  # b: 'project' and 'managed' (stem 'manag')
    assert {h["candidate_id"] for h in weaker} == {"c"}
    assert coverage["c"] == 0.5
