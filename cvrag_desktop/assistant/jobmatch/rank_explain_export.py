"""An explanation of a rank (``rank_explain``) as text or HTML: for the recruiter's screen, and as
the candidate-facing file (EU AI Act Art. 86: the main elements of a decision).

Everything written comes from the explanation of one row: the person's own name, their
requirements with their own CV lines, the rule and the model's part. No internal id, no
other candidate's name, score or place. Files are written atomically (``.part`` then
rename); the caller (``services.export_explanation``) audits the export.
"""

from __future__ import annotations

import html
import os
from pathlib import Path

STATUS = {"met": "met", "not_met": "not met", "unknown": "unknown (the CV does not say)"}
MARK = {"met": "✓", "not_met": "✗", "unknown": "?"}
FORMATS = ("html", "txt")


def _where(ev: dict | None) -> str:
    if not ev:
        return ""
    page = f", page {ev['page']}" if ev.get("page") else ""
    return f"{ev.get('file') or 'CV'}{page}"


def headline(expl: dict, title: str | None = None) -> str:
    """"Ranked 3 of 45 for <title>: score 23 (2 must-haves met × 10 + 1 nice-to-have × 3)."""
    what = f" for {title}" if title else ""
    if expl["kind"] == "job_match":
        b = expl["breakdown"]
        return (f"Ranked {expl['rank']} of {expl['ranked']}{what}: score {expl['score']} = "
                f"{b['must_met']} must-have(s) met × 10 + {b['nice_met']} nice-to-have(s) met × 3.")
    words = [r for r in expl["requirements"] if r["status"] == "met"]
    where = "a main match" if expl["main"] else "a weaker match (listed after the main matches)"
    return (f"Ranked {expl['rank']} of {expl['ranked']} in the search{what}: {where}; the CV states "
            f"{len(words)} of {len(expl['requirements'])} search words.")


def explanation_text(expl: dict, title: str | None = None) -> str:
    """Plain text: headline, each requirement with its cited line, flags, rule, model, oversight."""
    out = [f"Why this rank: {expl.get('name') or 'the candidate'}", "", headline(expl, title), ""]
    label = "Requirements" if expl["kind"] == "job_match" else "Search words"
    out.append(f"{label}:")
    for r in expl["requirements"]:
        kind = "" if expl["kind"] != "job_match" else (" (must-have)" if r["must"] else " (nice-to-have)")
        pts = f", {r['points']} points" if r.get("points") else ""
        out.append(f"  {MARK.get(r['status'], '?')} {r['requirement']}{kind}: {STATUS.get(r['status'], r['status'])}"
                   f"{pts}")
        ev = r.get("evidence")
        if ev:
            out.append(f"      {_where(ev)}: “{ev['line']}”")
    if expl.get("flags"):
        out += ["", "Flagged for a recruiter to read (not a rejection): " + ", ".join(expl["flags"])]
    if expl.get("not_read"):
        out += ["", "Not interpreted, so not checked for anyone: " + ", ".join(expl["not_read"])]
    out += ["", "How the rank is computed:", f"  {expl['rule']}", "", "What a model added:",
            f"  {expl['model']['text']}", "", expl["oversight"]]
    return "\n".join(out) + "\n"


def explanation_html(expl: dict, title: str | None = None) -> str:
    """A self-contained HTML page of the same content (the dialog shows it; the file carries it)."""
    e = html.escape
    label = "Requirement" if expl["kind"] == "job_match" else "Search word"
    rows = []
    for r in expl["requirements"]:
        ev = r.get("evidence")
        kind = ("must-have" if r["must"] else "nice-to-have") if expl["kind"] == "job_match" else ""
        cite = f"{e(_where(ev))}: “{e(ev['line'])}”" if ev else ""
        rows.append(f"<tr><td>{e(MARK.get(r['status'], '?'))} {e(r['requirement'])}</td><td>{e(kind)}</td>"
                    f"<td>{e(STATUS.get(r['status'], r['status']))}</td><td>{r.get('points') or ''}</td>"
                    f"<td>{cite}</td></tr>")
    parts = [f"<h2>Why this rank: {e(expl.get('name') or 'the candidate')}</h2>", f"<p>{e(headline(expl, title))}</p>",
             "<table border='1' cellspacing='0' cellpadding='4'>",
             f"<tr><th>{label}</th><th></th><th>Status</th><th>Points</th><th>Shown by (file, page, line)</th></tr>",
             *rows, "</table>"]
    if expl.get("flags"):
        parts.append("<p><b>Flagged for a recruiter to read (not a rejection):</b> "
                     + e(", ".join(expl["flags"])) + "</p>")
    if expl.get("not_read"):
        parts.append("<p><b>Not interpreted, so not checked for anyone:</b> " + e(", ".join(expl["not_read"])) + "</p>")
    parts += ["<h3>How the rank is computed</h3>", f"<p>{e(expl['rule'])}</p>", "<h3>What a model added</h3>",
              f"<p>{e(expl['model']['text'])}</p>", f"<p><i>{e(expl['oversight'])}</i></p>"]
    body = "\n".join(parts)
    return (f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>Why this rank</title></head>"
            f"<body>\n{body}\n</body></html>\n")


def candidate_facing(expl: dict) -> dict:
    """The explanation without internal ids and boxes (what a file for the candidate carries)."""
    def clean(ev: dict | None) -> dict | None:
        return None if ev is None else {k: ev[k] for k in ("file", "page", "section", "line") if k in ev}

    out = {k: v for k, v in expl.items() if k not in ("candidate_id", "person_id")}
    out["requirements"] = [{**r, "evidence": clean(r.get("evidence"))} for r in expl["requirements"]]
    if "best_passage" in out:
        out["best_passage"] = clean(out["best_passage"])
    return out


def write_explanation(expl: dict, path: Path, title: str | None = None) -> Path:
    """Write the candidate-facing explanation to ``path`` (``.html``/``.htm`` as HTML, else ``.txt``)."""
    path = Path(path)
    if path.suffix.lower() not in (".html", ".htm", ".txt"):
        path = path.with_suffix(".txt")
    shown = candidate_facing(expl)
    text = explanation_html(shown, title) if path.suffix.lower() in (".html", ".htm") else \
        explanation_text(shown, title)
    tmp = path.with_name(path.name + ".part")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return path
