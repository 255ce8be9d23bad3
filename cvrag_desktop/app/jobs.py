"""Job match: rank people against a job description, keep and reopen matches, export them, explain a rank.

Every run, save, export and explanation is audited by reference (the description as a
digest, never its text).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from cvrag_desktop.app.guards import room_to_export
from cvrag_desktop.assistant.jobmatch.export import pseudonymous, write_matrix_csv
from cvrag_desktop.assistant.jobmatch.rank_explain_export import explanation_text, write_explanation
from cvrag_desktop.catalog.compliance.audit import digest
from cvrag_desktop.catalog.job_matches import JobMatchStore

if TYPE_CHECKING:
    from cvrag_desktop.app.assembly import App


class JobMatchOps:
    """Job matching, the saved matches (``catalog/job_matches.py``) and why-this-rank explanations."""

    def __init__(self, app: App) -> None:
        self._app = app

    @property
    def _store(self):
        return JobMatchStore(self._app.catalog)

    def match_jd(self, text: str, use_llm: bool = True, limit: int | None = 20) -> dict:
        """Rank candidates against a job description with a requirement x candidate matrix
        (the ``limit`` best people; None: everyone ranked)."""
        return self._app.assistant.match_jd(text, use_llm=use_llm, limit=limit)

    def save_match(self, result: dict, jd_text: str, title: str | None = None) -> dict:
        """Keep a job-match result (``match_jd``) with its description in the library; returns its summary."""
        saved = self._store.save(result, jd_text, title)
        self._app.audit.record("job_match.save", details={
            "match_id": saved["match_id"], "description": digest((jd_text or "").strip()),
            "ranking": [c["candidate_id"] for c in result.get("candidates") or []]})
        return saved

    def list_matches(self) -> list[dict]:
        """Saved job matches, newest first (id, title, created time, LLM flag, number of candidates)."""
        return self._store.list()

    def open_match(self, match_id: int) -> dict:
        """A saved job match: title, description text and ``result`` (the shape ``match_jd`` returns)."""
        return self._store.get(match_id)

    def delete_match(self, match_id: int) -> None:
        """Delete a saved job match (audited)."""
        self._store.delete(match_id)
        self._app.audit.record("job_match.delete", details={"match_id": int(match_id)})

    def export_match_csv(self, result: dict, path: Path, blind: bool = False) -> int:
        """Write a job match's requirement x candidate matrix to CSV (``pseudonymous`` when blind) and audit it."""
        room_to_export(self._app)
        n = write_matrix_csv(pseudonymous(result) if blind else result, Path(path))
        self._app.audit.record_shown("export.job_match", details={
            "ranking": [c["candidate_id"] for c in result.get("candidates") or []], "rows": n, "blind": bool(blind)})
        return n

    def explain_match(self, result: dict, candidate_id: str, jd_text: str | None = None) -> dict:
        """Why one job-match row has its rank: each requirement with its cited CV line, the rule, the model's part."""
        from cvrag_desktop.assistant.jobmatch.rank_explain import explain_match

        return explain_match(result, candidate_id, catalog=self._app.catalog, jd_text=jd_text)

    def export_explanation(self, explanation: dict, path: Path, title: str | None = None) -> Path:
        """Write a candidate-facing explanation (HTML or text; no other candidate in it) and audit the export."""
        room_to_export(self._app)
        out = write_explanation(explanation, Path(path), title)
        self._app.audit.record_shown("export.explanation", [explanation["candidate_id"]], {
            "kind": explanation["kind"], "format": out.suffix.lstrip(".").lower(), "rank": explanation["rank"],
            "ranked": explanation["ranked"], "requirements": len(explanation["requirements"]),
            "flags": len(explanation.get("flags") or [])})
        return out

    def explanation_text(self, explanation: dict, title: str | None = None) -> str:
        """The plain-text form of an explanation (what ``cvrag explain`` prints)."""
        return explanation_text(explanation, title)
