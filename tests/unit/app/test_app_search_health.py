"""app.search and app.health over a stand-in index: the relevance floor, people counted, the warm-up's report."""

from __future__ import annotations

import pytest

from cvrag_desktop.app.assembly import App


class StubIndex:
    """Answers every search with the same hits (what the index would rank), records the calls."""

    def __init__(self, hits: list[dict]) -> None:
        self.hits = hits
        self.calls: list[tuple] = []

    def search(self, query, filters=None, k=8, strategy="hybrid", **kw):
        self.calls.append((query, filters, k, strategy, kw))
        return [dict(h) for h in self.hits]

    def status(self) -> dict:
        return {"points": len(self.hits)}

    def close(self) -> None:
        pass


HITS = [
    {"candidate_id": "d1", "text": "Kafka streaming pipelines in production"},
    {"candidate_id": "d2", "text": "Kafka and Python services"},
    {"candidate_id": "d3", "text": "Nursing, night shifts"},
]


@pytest.fixture
def app():
    a = App(index=StubIndex(HITS))
    yield a
    a.close()


def test_search_passes_the_request_through_and_keeps_the_hits(app):
    assert app.search.search("kafka", {"skills": ["Kafka"]}, 5, "filtered") == HITS
    assert app.search.search("kafka", None, 3, rerank=False) == HITS
    assert app._index.calls == [("kafka", {"skills": ["Kafka"]}, 5, "filtered", {}),
                                ("kafka", None, 3, "hybrid", {"rerank": False})]


def test_the_floor_splits_people_and_counts_them_by_person(app):
    found = app.search.search_with_floor("kafka", person_of={"d1": "p1", "d2": "p1", "d3": "p3"}.get)
    assert [h["candidate_id"] for h in found["main"]] == ["d1", "d2"]
    assert [h["candidate_id"] for h in found["weaker"]] == ["d3"]
    assert found["main_people"] == 1 and found["weaker_people"] == 1 and found["suggestions"] == []
    by_document = app.search.search_with_floor("kafka")
    assert by_document["main_people"] == 2


def test_nothing_above_the_floor_suggests_the_closest_terms(app):
    found = app.search.search_with_floor("zzzqqq")
    assert found["main"] == [] and found["suggestions"] == [] and found["weaker_people"] == 3  # an empty library


def test_status_and_warm_up_report_without_raising(app, monkeypatch):
    info = app.health.status_info()
    assert info["index"] == {"points": 3} and info["people"] == 0 and "llm_down" in info

    def broken(_self):
        raise RuntimeError("the index did not open")

    monkeypatch.setattr(App, "index", property(broken))
    out = app.health.warm_up()
    assert out["error"] == "RuntimeError"
    assert set(out["timings"]) == {"index_ms", "models_ms", "assistant_ms", "llm_ms", "status_ms"}
    assert out["doctor"]["index"] == {"error": "the index did not open"}
