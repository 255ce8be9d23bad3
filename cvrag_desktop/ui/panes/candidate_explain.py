""""Why this rank" for a ranked-search row of the Candidates pane (the table's context menu).

The search is run again in a worker by ``services.explain_search`` with the words in the box
and the facets the index applies (as the pane's own search ran), and the explanation opens in
:class:`~cvrag_desktop.ui.dialogs.rank_explain_dialog.RankExplainDialog`; a cited line clicked there
opens the pane's preview at it (black boxes over the identity in blind mode).
"""

from __future__ import annotations

from cvrag_desktop.ui.dialogs.rank_explain_dialog import RankExplainDialog, open_citation, shown_explanation
from cvrag_desktop.ui.panes.candidate_search import index_filters


def can_explain(pane) -> bool:
    """Whether the current row is a person of the ranked search shown."""
    return bool(pane.ranked and pane.current_id and pane.best_hit(pane.current_id) is not None)


def explain_current(pane) -> None:
    """Explain the current person's place in the search shown (in a worker), then show the dialog."""
    if not can_explain(pane):
        pane.message.show_message("Search first, then choose a person of the results.", "info")
        return
    svc, blind, pid = pane.services, pane.blind, pane.current_id
    query, filters = pane.search.text().strip(), index_filters(pane.proxy)

    def explain(ctx) -> tuple[dict, dict]:
        raw = svc.search.explain_search(query, pid, filters)
        return raw, shown_explanation(svc, blind, raw)

    pane.runner.start("search-explain", explain, on_result=lambda pair: _show(pane, *pair, query),
                      on_error=pane._error)


def _show(pane, raw: dict, expl: dict, query: str) -> None:
    hide = pane.blind is not None and pane.blind.hides(expl.get("person_id") or expl["candidate_id"],
                                                       [expl["candidate_id"]])
    dlg = RankExplainDialog(pane.services, pane.runner, expl, f"“{query}”", pane, blind=hide)
    dlg.citation_clicked.connect(lambda ev: open_citation(pane.preview, pane.runner, pane.services, ev, dlg.blind,
                                                          pane._error, "candidate-preview"))
    if pane.blind is not None:  # blind screening switched while it is open: the dialog redraws itself
        dlg.follow(pane.blind, raw)
    pane.explain_dialog = dlg
    dlg.show()
