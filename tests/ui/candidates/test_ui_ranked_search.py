"""Ranked search in the Candidates pane: relevance order on a known corpus, score bar and snippet,
filters combined, the previous sort restored, an older query's result ignored."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from cvrag_desktop.ui.models.candidates import IMPORTED_COL, REL_COL, SNIPPET_COL, CandidateTableModel
from cvrag_desktop.ui.ranking import highlight, query_terms, rank_people, snippet
from cvrag_desktop.ui.shell.main_window import CANDIDATES
from tests.ui.conftest import close_window, deliver_posted_events, open_window


@pytest.fixture
def ranked_window(qtbot, chat_services):
    """A started window over the 10 small CVs (imported and indexed), on the Candidates pane."""
    win = open_window(qtbot, chat_services)
    win.show_pane(CANDIDATES)
    n = len(chat_services.people.list_people())
    qtbot.waitUntil(lambda: win.candidates.model.rowCount() == n, timeout=30_000)
    yield win
    close_window(win)


def _search(pane, qtbot, text: str) -> None:
    with qtbot.waitSignal(pane.search_done, timeout=60_000):
        pane.search.setText(text)


def _texts(services) -> dict[str, str]:
    """Person id -> all chunk text of the person's documents (casefolded)."""
    out = {}
    for p in services.people.list_people():
        out[p["id"]] = " ".join(c.text for d in p["document_ids"] for c in services.catalog.chunks(d)).casefold()
    return out


def test_search_ranks_people_by_relevance(ranked_window, qtbot):
    pane = ranked_window.candidates
    svc = ranked_window.services
    texts = _texts(svc)
    rows = pane.model.rows()
    # a skill some people's CVs mention and others' do not: the known answer
    skill = next(s for r in rows for s in r["skills"]
                 if 0 < sum(s.casefold() in t for t in texts.values()) <= len(texts) // 2 and len(s) > 3)
    holders = {pid for pid, t in texts.items() if skill.casefold() in t}
    header = pane.table.horizontalHeader()
    assert header.sortIndicatorSection() == IMPORTED_COL
    assert pane.table.isColumnHidden(REL_COL) and pane.table.isColumnHidden(SNIPPET_COL)
    _search(pane, qtbot, skill)
    shown = pane.proxy.visible_ids()
    assert shown, "the search found nobody"
    # everyone whose CV contains the word comes before everyone whose CV does not (one row per person)
    assert len(shown) == len(set(shown))
    assert set(shown[:len(holders)]) == holders
    # the table follows the engine: the best chunk's person is first
    hits = svc.search.search(skill, None, 200, "hybrid")
    assert shown[0] == pane.model.person_of(hits[0]["candidate_id"])
    assert not pane.table.isColumnHidden(REL_COL) and header.sortIndicatorSection() == REL_COL
    top = pane.proxy.index(0, REL_COL)
    assert pane.proxy.data(top, CandidateTableModel.RelevanceRole) == 1.0
    rels = [pane.proxy.data(pane.proxy.index(i, REL_COL), CandidateTableModel.RelevanceRole)
            for i in range(pane.proxy.rowCount())]
    assert rels == sorted(rels, reverse=True)
    html = pane.proxy.data(pane.proxy.index(0, SNIPPET_COL), CandidateTableModel.HtmlRole)
    # each word of the skill is lit (a two-word skill may be lit word by word, with markup between)
    assert "<b>" in html and all(w in html.casefold() for w in skill.casefold().split())
    assert "Rank 1" in pane.proxy.data(top, Qt.ItemDataRole.ToolTipRole)
    assert not pane.table.grab().isNull()  # the bar and snippet delegates paint
    # selecting the best person opens the preview at the best passage's page
    with qtbot.waitSignal(pane.preview.rendered, timeout=30_000) as shown_page:
        pane.select_candidate(shown[0])
    assert shown_page.args[0] == (pane.best_hit(shown[0]).page or 0)
    # clearing the search restores the previous order and hides the search columns
    _search(pane, qtbot, "")
    assert header.sortIndicatorSection() == IMPORTED_COL
    assert header.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder
    assert pane.table.isColumnHidden(REL_COL) and pane.proxy.rowCount() == pane.model.rowCount()


def test_search_and_filters_combine(ranked_window, qtbot):
    pane = ranked_window.candidates
    _search(pane, qtbot, "software engineer experience")
    pane.weaker_btn.setChecked(True)  # every ranked person, weaker matches too
    ranked = pane.proxy.visible_ids()
    assert len(ranked) >= 3
    years = sorted(pane.model.row(i)["years_of_experience"] or 0 for i in ranked)
    pane.facets.min_years.setValue(int(years[len(years) // 2]) or 1)
    narrowed = pane.proxy.visible_ids()
    assert 0 < len(narrowed) < len(ranked)
    assert narrowed == [i for i in ranked if i in narrowed]  # still in relevance order
    assert all((pane.model.row(i)["years_of_experience"] or 0) >= pane.facets.min_years.value() for i in narrowed)
    pane.facets.reset()
    assert pane.proxy.visible_ids() == ranked


def test_facets_go_with_the_query_to_the_index(ranked_window, qtbot, monkeypatch):
    """With a facet set, the search looks for its best passages among the people the facet keeps:
    a small k over the whole library would have left the facet's people out."""
    from cvrag_desktop.ui.panes import candidate_search

    pane = ranked_window.candidates
    svc = ranked_window.services
    seen: list = []
    real = svc.search.search
    monkeypatch.setattr(svc.search, "search", lambda q, f=None, k=8, s="hybrid": (seen.append(f), real(q, f, k, s))[1])
    monkeypatch.setattr(candidate_search, "SEARCH_K", 2)  # only the two best passages of the index
    query = "software engineer experience"
    unfiltered = {pane.model.person_of(h["candidate_id"]) for h in real(query, None, 2, "hybrid")}
    rows = pane.model.rows()
    # a skill that none of the two best unfiltered passages' people have
    skill = next((s for r in rows for s in r["skills"]
                  if not any(s in (pane.model.row(p)["skills"] or []) for p in unfiltered)), None)
    assert skill, "the corpus has no skill outside the top people"
    pane.facets.set_values({"skills": [skill]})
    _search(pane, qtbot, query)
    assert seen[-1] == {"skills": [skill]}
    pane.weaker_btn.setChecked(True)  # two passages state little of the query: the facet's people are weaker matches
    shown = pane.proxy.visible_ids()
    assert shown, "the facet's people were searched among, so someone with the skill is found"
    assert all(skill in pane.model.row(p)["skills"] for p in shown)
    assert not set(shown) & unfiltered
    # changing a facet while a search is shown runs the search again with the new filters
    with qtbot.waitSignal(pane.search_done, timeout=60_000):
        pane.facets.reset()
    assert seen[-1] is None


def test_a_newer_query_wins(ranked_window, qtbot):
    pane = ranked_window.candidates
    pane.search.blockSignals(True)
    pane.search.setText("python")
    pane._run_search()
    pane.search.setText("nurse hospital")
    with qtbot.waitSignal(pane.search_done, timeout=60_000):
        pane._run_search()
    pane.search.blockSignals(False)
    ranked_window.runner.wait(30_000)
    deliver_posted_events()  # any late result of the older query has been delivered (and must be ignored)
    assert all(p.terms == ["nurse", "hospital"] for p in pane.model.ranking.values())


def test_rank_people_groups_chunks_by_person():
    hits = [{"candidate_id": "d2", "score": 0.9, "page": 1, "section": "skills", "text": "Kafka and Go"},
            {"candidate_id": "d1", "score": 0.5, "page": 0, "section": "summary", "text": "kafka streams"},
            {"candidate_id": "d3", "score": 0.45, "page": 0, "section": "summary", "text": "a nurse"},
            {"candidate_id": "gone", "score": 0.99, "page": 0, "section": "x", "text": "kafka"}]
    owner = {"d1": "p1", "d2": "p1", "d3": "p3"}
    ranked = rank_people(hits, owner.get, "Kafka")
    assert [p.person_id for p in ranked] == ["p1", "p3"]
    assert ranked[0].hits == 2 and ranked[0].document_id == "d2" and ranked[0].page == 1
    assert ranked[0].relative == 1.0 and ranked[1].relative == pytest.approx(0.5)
    assert ranked[0].term_found() and not ranked[1].term_found()
    assert ranked[0].snippet_html == "<b>Kafka</b> and Go"


def test_snippet_and_highlight():
    assert query_terms('"C++" and Kubernetes, k8s') == ["c++", "and", "kubernetes", "k8s"]
    text = "word " * 60 + "Kubernetes operator " + "tail " * 60
    s = snippet(text, ["kubernetes"], 80)
    assert "Kubernetes" in s and s.startswith("… ") and s.endswith(" …") and len(s) <= 86
    assert highlight("<b>C++</b> c++", ["c++"]) == "&lt;b&gt;<b>C++</b>&lt;/b&gt; <b>c++</b>"


def test_weaker_matches_hide_behind_a_toggle(ranked_window, qtbot):
    """People whose CVs state too little of the query wait behind "Show weaker matches (N)"."""
    pane = ranked_window.candidates
    svc = ranked_window.services
    texts = _texts(svc)
    rows = pane.model.rows()
    skill = next(s for r in rows for s in r["skills"]
                 if 0 < sum(s.casefold() in t for t in texts.values()) < len(texts) and len(s) > 4 and s.isalpha())
    found = svc.search.search_with_floor(skill, None, 200, "hybrid", person_of=pane.model.person_of)
    _search(pane, qtbot, skill)
    main = pane.proxy.rowCount()
    assert main == found["main_people"] > 0
    if found["weaker_people"]:
        assert pane.weaker_btn.isVisible()
        assert pane.weaker_btn.text() == f"Show weaker matches ({found['weaker_people']})"
        pane.weaker_btn.setChecked(True)
        assert pane.proxy.rowCount() == main + found["weaker_people"]
        assert pane.weaker_btn.text().startswith("Hide weaker matches")
        pane.weaker_btn.setChecked(False)
        assert pane.proxy.rowCount() == main


def test_a_query_nobody_matches_says_so(ranked_window, qtbot):
    """A profession no CV names: no main row, a message, and the closest skills or names offered."""
    pane = ranked_window.candidates
    _search(pane, qtbot, "zookeeper")
    assert pane.proxy.rowCount() == 0
    assert pane.message.isVisible() and "No close match" in pane.message.text()
