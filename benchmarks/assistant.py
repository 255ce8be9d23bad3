"""Assistant quality and latency against generated ground truth.

Questions are built from the factory's ground-truth JSON (lookup, filter, analytics,
open, compare, unanswerable), asked through ``AssistantService.ask`` and scored:

- analytics: exact against the ground truth and against an independent brute-force
  computation over the catalog records (the code's own arithmetic);
- filter: precision / recall of the returned candidate set (no-LLM mode);
- open (search over prose, e.g. "Describe the Docker experience of the candidates"):
  answered, and every cited candidate holds the skill;
- unanswerable: share answered ``unknown``;
- citation validity: every cited id was given, and the cited chunk's text shows the fact;
- latency: question → first evidence (rewrite + routing + retrieval, no LLM), p50/p95.

A separate set of hand-written recruiter paraphrases over the same ground truth
(``handwritten.py``: history, lookup, compare, aggregate, count, unanswerable) is asked
the same way and printed as its own table, so the template questions cannot hide overfitting.
Five more groups (``assistant_rows.py``: typo, follow-up, credential, gap, foreign) get a table each.

    python benchmarks/assistant.py [--n 100] [--seed 21] [--root DIR] [--scale-root DIR] [--llm]

``--root``/``--scale-root`` reuse (or create) a folder holding ``gen/`` and ``home/``.
``--scale-root`` with 1,000 CVs gives the latency row the acceptance asks for.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from handwritten import build_handwritten, expected, print_handwritten, score

UNANSWERABLE_FIELDS = ["salary expectations", "date of birth", "marital status", "notice period",
                       "visa sponsorship status", "favourite football team", "shoe size", "criminal record"]
RARE_SKILLS = ["COBOL", "Fortran", "Erlang", "Haskell", "Prolog", "Delphi", "Smalltalk", "Lisp"]


def prepare(root: Path, n: int, seed: int) -> None:
    """Generate, ingest and index ``n`` CVs under ``root`` unless already there."""
    os.environ["CVRAG_HOME"] = str(root / "home")
    if (root / "READY").exists():
        return
    from cvrag_desktop.app.assembly import App
    from cvrag_desktop.factory.pipeline import generate_batch
    from cvrag_desktop.index.service import SearchService

    if not (root / "gen" / "manifest.json").exists():
        generate_batch(n, seed, root / "gen", locale="mixed", layout="mixed")
    svc = App()
    svc.library.ingest([root / "gen"], use_llm=False)
    s = SearchService(svc.catalog, svc.paths, svc.settings)
    s.rebuild()
    s.close()
    svc.close()
    (root / "READY").write_text("ok")


def load_truth(root: Path, catalog) -> dict[str, dict]:
    """Ground truth by candidate id (joined on the source file name)."""
    by_stem = {Path(r["original_path"]).stem: r["candidate_id"]
               for r in catalog.query("SELECT original_path, candidate_id FROM files WHERE candidate_id IS NOT NULL")}
    out = {}
    for p in sorted((root / "gen").glob("*.json")):
        if p.name == "manifest.json" or p.stem not in by_stem:
            continue
        out[by_stem[p.stem]] = json.loads(p.read_text(encoding="utf-8"))
    return out


def gt_years(rec: dict, today: dt.date) -> float | None:
    """Years of experience of a ground-truth record as of today (the catalog's rule)."""
    from cvrag_desktop.domain import Experience, years_of_experience

    return years_of_experience([Experience.model_validate(e) for e in rec["experiences"]], today)


def gt_skills(rec: dict) -> set[str]:
    """Skill keys a ground-truth CV states: its skills list plus (unambiguous) skills named in its prose.

    "Who knows Terraform?" should find a CV whose experience says "automated with Terraform"
    or whose certifications list ISTQB, as ingestion does.
    """
    from cvrag_desktop.text.keys import normalize_key
    from cvrag_desktop.text.vocab.lexicon import load_lexicon
    from cvrag_desktop.text.vocab.skills import AMBIGUOUS_SKILLS, canonical_skill, skill_key

    out = {skill_key(x) for x in rec["skills"]}
    prose = [rec.get("summary") or "", *rec.get("certifications", [])]
    prose += [b for e in rec["experiences"] for b in e.get("bullets", [])]
    for m in load_lexicon().skill_pattern.finditer("\n".join(prose)):
        canon = canonical_skill(m.group(0))
        if canon and normalize_key(m.group(0)) not in AMBIGUOUS_SKILLS and \
                not (m.group(0).islower() and len(m.group(0)) <= 3):
            out.add(skill_key(canon))
    return out


def gt_matches(rec: dict, f: dict, today: dt.date) -> bool:
    """Does a ground-truth record pass the filters (index semantics)?"""
    from cvrag_desktop.text.keys import text_key
    from cvrag_desktop.text.vocab.degrees import degree_level
    from cvrag_desktop.text.vocab.languages import language_key
    from cvrag_desktop.text.vocab.skills import skill_key

    if any(skill_key(s) not in gt_skills(rec) for s in f.get("skills", [])):
        return False
    if any(language_key(s) not in {language_key(x) for x in rec["languages"]} for s in f.get("languages", [])):
        return False
    for c in f.get("companies", []):
        if not any(set(text_key(c).split()) <= set(text_key(e["company"] or "").split()) for e in rec["experiences"]):
            return False
    if f.get("location") and not set(text_key(f["location"]).split()) <= set(text_key(rec["location"] or "").split()):
        return False
    y = gt_years(rec, today)
    if f.get("min_years") is not None and (y is None or int(y) < f["min_years"]):
        return False
    if f.get("degree_level"):
        return f["degree_level"] in {degree_level(e["degree"] or "") for e in rec["education"]}
    return True


def people(truth: dict[str, dict], ids) -> int:
    """How many people (ground-truth ``person_id``) hold these documents: counts are of people, not files."""
    return len({truth[c].get("person_id") or c for c in ids})


def build_questions(truth: dict[str, dict], rng: random.Random, today: dt.date) -> list[dict]:
    """Questions with expectations, by category."""
    from collections import Counter

    from cvrag_desktop.assistant.facts.store import role_span, span_years
    from cvrag_desktop.text.vocab.skills import canonical_skill

    qs: list[dict] = []
    ids = sorted(truth)
    names = Counter(t["name"] for t in truth.values())
    unique = [c for c in ids if names[truth[c]["name"]] == 1]
    n = len(ids)
    # lookup
    for cid in rng.sample(unique, min(30, len(unique))):
        t = truth[cid]
        kind = rng.choice(["email", "languages", "current", "education"])
        if kind == "email" and t["emails"]:
            qs.append({"cat": "lookup", "q": f"What is {t['name']}'s email address?", "expect": [t["emails"][0]],
                       "cid": cid})
        elif kind == "languages" and t["languages"]:
            qs.append({"cat": "lookup", "q": f"Which languages does {t['name']} speak?", "expect": t["languages"],
                       "cid": cid, "langs": True})
        elif kind == "current" and t["current_company"]:
            qs.append({"cat": "lookup", "q": f"Where does {t['name']} currently work?",
                       "expect": [t["current_company"]], "cid": cid})
        elif t["education"] and t["education"][0]["degree"]:
            qs.append({"cat": "lookup", "q": f"What is {t['name']}'s education?",
                       "expect": [t["education"][0]["degree"]], "cid": cid})
    # filters
    skill_count = Counter(canonical_skill(s) or s for t in truth.values() for s in t["skills"])
    mid = sorted(s for s, c in skill_count.items() if 2 <= c <= max(3, n // 4) and canonical_skill(s))
    lang_count = Counter(lang for t in truth.values() for lang in t["languages"])
    comp_count = Counter(e["company"] for t in truth.values() for e in t["experiences"] if e["company"])
    filters: list[tuple[str, dict]] = []
    for s in rng.sample(mid, min(15, len(mid))):
        filters.append((f"Who knows {s}?", {"skills": [s]}))
    for s in rng.sample(mid, min(8, len(mid))):
        y = rng.choice([3, 5, 8])
        filters.append((f"Which candidates have {s} and {y}+ years of experience?", {"skills": [s], "min_years": y}))
    for lang in [x for x in lang_count if x not in ("English",)][:6]:
        filters.append((f"Who speaks {lang}?", {"languages": [lang]}))
    for c in rng.sample(sorted(comp_count), min(6, len(comp_count))):
        filters.append((f"Who worked at {c}?", {"companies": [c]}))
    for word, level in (("a PhD", "phd"), ("a master's degree", "master")):
        filters.append((f"Which candidates have {word}?", {"degree_level": level}))
    for q, f in filters:
        exp = {c for c in ids if gt_matches(truth[c], f, today)}
        qs.append({"cat": "filter", "q": q, "filters": f, "expect_ids": sorted(exp)})
    # analytics (expected from ground truth)
    roles = [(cid, e, (sp[1] - sp[0]).days) for cid in ids for e in truth[cid]["experiences"]
             if (sp := role_span(e, today))]
    for longest in (True, False):
        target = (max if longest else min)(d for _, _, d in roles)
        win = sorted({cid for cid, _, d in roles if d == target})
        qs.append({"cat": "analytics", "q": "Who stayed longest at one job?" if longest else
                   "Which candidate had the shortest job?", "expect_ids": win, "expect_value": span_years(target)})
    years = {cid: gt_years(truth[cid], today) for cid in ids}
    for most in (True, False):
        vals = [y for y in years.values() if y is not None]
        target = (max if most else min)(vals)
        qs.append({"cat": "analytics", "q": "Who has the most years of experience?" if most else
                   "Who is the least experienced candidate?", "expect_ids": sorted(c for c, y in years.items()
                                                                                  if y == target),
                   "expect_value": target})
    for lang in list(lang_count)[:4]:
        exp = [c for c in ids if gt_matches(truth[c], {"languages": [lang]}, today)]
        qs.append({"cat": "analytics", "q": f"How many candidates speak {lang}?", "expect_count": people(truth, exp)})
    for s in rng.sample(mid, min(4, len(mid))):
        exp = [c for c in ids if gt_matches(truth[c], {"skills": [s]}, today)]
        qs.append({"cat": "analytics", "q": f"How many candidates know {s}?", "expect_count": people(truth, exp)})
    exp = [c for c in ids if gt_matches(truth[c], {"degree_level": "phd"}, today)]
    qs.append({"cat": "analytics", "q": "How many candidates have a PhD?", "expect_count": people(truth, exp)})
    # open questions over prose (search, then an extractive or model-written answer)
    for k, s in enumerate(rng.sample(mid, min(10, len(mid)))):
        q = f"Describe the {s} experience of the candidates" if k % 2 else f"What have candidates done with {s}?"
        qs.append({"cat": "open", "q": q, "expect_ids": sorted(c for c in ids if gt_matches(truth[c], {"skills": [s]},
                                                                                             today))})
    # compare
    for _ in range(8):
        a, b = rng.sample(unique, 2)
        qs.append({"cat": "compare", "q": f"Compare {truth[a]['name']} and {truth[b]['name']}", "expect_ids": [a, b]})
    # unanswerable
    for cid in rng.sample(unique, min(16, len(unique))):
        qs.append({"cat": "unanswerable", "q": f"What are {truth[cid]['name']}'s {rng.choice(UNANSWERABLE_FIELDS)}?"})
    for s in RARE_SKILLS[:4]:  # not in the alias table and in no generated CV
        qs.append({"cat": "unanswerable", "q": f"Who has experience with {s}?"})
    for q in ["What is Zebulon Quartermaine's phone number?", "What's the weather in Paris tomorrow?",
              "Who has a commercial pilot licence?", "Which candidate owns a racehorse?",
              "Tell me a joke about recruiters", "Who has been to the Moon?"]:
        qs.append({"cat": "unanswerable", "q": q})
    return qs


def _norm(s: str) -> str:
    from cvrag_desktop.text.keys import text_key

    return f" {text_key(s)} "


def citations_valid(r: dict, q: dict) -> tuple[bool, str]:
    """Every cited id was given, and the cited chunk's text shows each fact it is cited for.

    Computed answers record their facts ({kind, value}) per evidence; a ``skills`` or
    ``languages`` fact must be found through the alias tables in the chunk, a ``text``
    fact word for word. Extractive answers quote lines of the chunk itself (their support
    is the term check inside the answer stage); LLM answers are checked the same way.
    """
    from cvrag_desktop.assistant.answer.contract import mentions
    from cvrag_desktop.assistant.facts.store import holds
    from cvrag_desktop.text.stems import suffix_stem

    given = set(r["evidence_ids"])
    for c in r["citations"]:
        if c["evidence_id"] not in given:
            return False, f"{c['evidence_id']} not given"
        for fact in c.get("facts") or []:
            if not holds(c["full_text"], fact["value"], fact["kind"]):
                return False, f"{c['evidence_id']} ({c['section']}) does not show {fact}"
        if not c.get("facts") and r["route"] in ("hybrid", "hybrid_filtered"):
            terms = [suffix_stem(w) for w in r.get("plan_terms", [])]
            if terms and not mentions(c["full_text"], terms) and c["candidate_id"] not in r.get("plan_candidates", []):
                return False, f"{c['evidence_id']} mentions none of {terms}"
    return True, ""


def reference(facts, q: dict, today: dt.date) -> dict | None:
    """Brute-force recomputation over the catalog records (checks the arithmetic, not the extraction)."""
    from cvrag_desktop.assistant.facts.store import role_span, span_years

    allf = list(facts.all().values())
    text = q["q"].lower()
    if "stayed longest" in text or "shortest job" in text:
        best = None
        for f in allf:
            for e in f.record["experiences"]:
                sp = role_span(e, today)
                if sp:
                    d = (sp[1] - sp[0]).days
                    if best is None or ((d > best[0]) if "longest" in text else (d < best[0])):
                        best = (d, {f.candidate_id})
                    elif d == best[0]:
                        best[1].add(f.candidate_id)
        return {"ids": sorted(best[1]), "value": span_years(best[0])}
    if "years of experience" in text or "least experienced" in text:
        ys = [(f.years, f.candidate_id) for f in allf if f.years is not None]
        t = max(ys)[0] if "most" in text else min(ys)[0]
        return {"ids": sorted(c for y, c in ys if y == t), "value": t}
    return None


def run(root: Path, questions: list[dict], truth: dict, use_llm: bool, today: dt.date) -> dict:
    """Ask every question; score by category."""
    from cvrag_desktop.app.assembly import App
    from cvrag_desktop.assistant.service import AssistantService
    from cvrag_desktop.index.service import SearchService

    svc = App()
    search = SearchService(svc.catalog, svc.paths, svc.settings)
    asst = AssistantService(svc.catalog, search, svc.paths, svc.settings)
    asst.ask("warm up: who knows Python?", use_llm=False)
    rows, fails = [], []
    for q in questions:
        t0 = time.perf_counter()
        r = asst.ask(q["q"], use_llm=use_llm)
        wall = time.perf_counter() - t0
        tm = r["timings"]
        first = tm.get("rewrite_ms", 0) + tm.get("route_ms", 0) + tm.get("retrieve_ms", 0)
        ok, why = citations_valid(r, q)
        notes = r.get("notes") or []
        row = {"cat": q["cat"], "status": r["status"], "route": r["route"], "mode": r["mode"], "first_ms": first,
               "wall_s": wall, "cite_ok": ok, "cited": len(r["citations"]), "notes": notes,
               "route_ms": tm.get("route_ms", 0), "answer_ms": tm.get("answer_ms", 0)}
        cat = q["cat"]
        if cat == "filter":
            got = set(r.get("matches") or [c["candidate_id"] for c in r["citations"]])
            exp = set(q["expect_ids"])
            row["tp"], row["fp"], row["fn"] = len(got & exp), len(got - exp), len(exp - got)
        elif cat == "analytics":
            data = r.get("data", {})
            if "expect_count" in q:
                got = data.get("count", 0)
                row["exact_gt"] = got == q["expect_count"]
                # the code's arithmetic: documents passing the filters, one per person
                ref = len({asst.people.person_of(f.candidate_id).person_id for f in asst.facts.matching(r["filters"])})
                row["exact_ref"] = got == ref
            else:
                row["exact_gt"] = sorted(data.get("candidate_ids", [])) == q["expect_ids"] and \
                    data.get("years") == q["expect_value"]
                ref = reference(asst.facts, q, today)
                row["exact_ref"] = ref is not None and sorted(data.get("candidate_ids", [])) == ref["ids"] and \
                    data.get("years") == ref["value"]
        elif cat == "lookup":
            ans = _norm(r["answer"])
            row["correct"] = r["status"] == "answered" and all(_norm(v).strip() in ans for v in q["expect"])
        elif cat == "compare":
            row["correct"] = r["status"] == "answered" and {c["candidate_id"] for c in r["citations"]} >= \
                set(q["expect_ids"])
        elif cat == "unanswerable":
            row["correct"] = r["status"] == "unknown"
        elif cat == "open":  # answered, and every cited candidate holds the skill
            row["correct"] = r["status"] == "answered" and bool(r["citations"]) and \
                {c["candidate_id"] for c in r["citations"]} <= set(q["expect_ids"])
        elif cat.startswith("hw-"):  # hand-written paraphrases (handwritten.py)
            row["correct"] = score(q, r)
        if not ok or row.get("correct") is False or row.get("exact_ref") is False or row.get("exact_gt") is False or \
                (cat == "filter" and (row["fp"] or row["fn"])):
            fails.append({"q": q["q"], "cat": cat, "status": r["status"], "route": r["route"], "why": why,
                          "answer": r["answer"][:160], "data": {k: v for k, v in r.get("data", {}).items() if k != "candidate_ids"},
                          "expect": {k: q[k] for k in ("expect_count", "expect_value") if k in q}, **{k: row[k] for k in ("tp", "fp", "fn") if k in row},
                          **({"expected": expected(q), "answer": r["answer"][:240]} if cat.startswith("hw-") else {})})
        rows.append(row)
    asst.close()
    search.close()
    svc.close()
    return {"rows": rows, "fails": fails}


def pct(values: list[float], p: float) -> float:
    """Percentile."""
    v = sorted(values)
    return v[min(len(v) - 1, round(p / 100 * (len(v) - 1)))] if v else float("nan")


def print_tables(label: str, res: dict) -> None:
    """The quality table of one run."""
    rows = res["rows"]
    print(f"\n## {label}\n")
    print(f"{'category':<14}{'questions':>10}{'metric':>38}{'value':>10}")

    def line(cat: str, metric: str, value: str) -> None:
        print(f"{cat:<14}{sum(r['cat'] == cat for r in rows):>10}{metric:>38}{value:>10}")

    an = [r for r in rows if r["cat"] == "analytics"]
    line("analytics", "exact vs catalog (code's arithmetic)", f"{sum(r['exact_ref'] for r in an) / len(an):.0%}")
    line("analytics", "exact vs ground truth", f"{sum(r['exact_gt'] for r in an) / len(an):.0%}")
    fl = [r for r in rows if r["cat"] == "filter"]
    tp, fp, fn = (sum(r[k] for r in fl) for k in ("tp", "fp", "fn"))
    line("filter", "precision (micro)", f"{tp / max(1, tp + fp):.3f}")
    line("filter", "recall (micro)", f"{tp / max(1, tp + fn):.3f}")
    for cat, metric in (("lookup", "correct value + answered"), ("compare", "both cited + answered"),
                        ("open", "answered, cited people hold the skill"), ("unanswerable", "answered unknown")):
        sub = [r for r in rows if r["cat"] == cat]
        line(cat, metric, f"{sum(r['correct'] for r in sub) / max(1, len(sub)):.0%}")
    cited = [r for r in rows if r["cited"]]
    print(f"{'all':<14}{len(rows):>10}{'citation validity':>38}{sum(r['cite_ok'] for r in rows) / len(rows):>10.0%}")
    print(f"{'all':<14}{len(rows):>10}{'answers with citations':>38}{len(cited):>10}")
    print(f"{'all':<14}{len(rows):>10}{'LLM-written answers':>38}{sum(r['mode'] == 'llm' for r in rows):>10}")
    print(f"{'all':<14}{len(rows):>10}{'first evidence p50 / p95 ms':>38}"
          f"{pct([r['first_ms'] for r in rows], 50):>5.0f}/{pct([r['first_ms'] for r in rows], 95):.0f}")
    print(f"{'all':<14}{len(rows):>10}{'whole ask() p50 / p95 s':>38}"
          f"{pct([r['wall_s'] for r in rows], 50):>5.2f}/{pct([r['wall_s'] for r in rows], 95):.2f}")
    if any(r["mode"] == "llm" or r["notes"] for r in rows):
        _print_llm_rows(rows)
    routes: dict[str, int] = {}
    for r in rows:
        routes[f"{r['cat']}→{r['route']}"] = routes.get(f"{r['cat']}→{r['route']}", 0) + 1
    print("routes:", ", ".join(f"{k} {v}" for k, v in sorted(routes.items())))
    if res["fails"]:
        print(f"\nmisses ({len(res['fails'])}):")
        for f in res["fails"][:25]:
            print("  -", json.dumps(f, ensure_ascii=False)[:300])


def _print_llm_rows(rows: list[dict]) -> None:
    """What the model did: calls that failed, answers the validation rejected, and why."""
    from collections import Counter

    def has(r: dict, text: str) -> bool:
        return any(text in n for n in r["notes"])

    searched = [r for r in rows if r["route"] not in ("analytics", "out_of_scope")]
    n = len(rows)
    print(f"{'all':<14}{n:>10}{'routing calls failed → rules':>38}{sum(has(r, 'routing without') for r in rows):>10}")
    print(f"{'searched':<14}{len(searched):>10}{'answer rejected once, retried':>38}"
          f"{sum(has(r, 'attempt 1') and r['mode'] == 'llm' for r in searched):>10}")
    print(f"{'searched':<14}{len(searched):>10}{'answer rejected twice → deterministic':>38}"
          f"{sum(has(r, 'deterministic answer') or has(r, 'extractive answer') for r in searched):>10}")
    print(f"{'searched':<14}{len(searched):>10}{'LLM route / answer p50 s':>38}"
          f"{pct([r['route_ms'] for r in searched], 50) / 1000:>5.1f}/{pct([r['answer_ms'] for r in searched], 50) / 1000:.1f}")
    reasons = Counter()
    for r in rows:
        for note in r["notes"]:
            for why in re.findall(r"answer rejected \(attempt \d\): ([^;]+)", note):
                reasons[re.sub(r"\(given: .*|\)$", "", why.strip())[:70].strip()] += 1
    if reasons:
        print("    rejected model replies by reason (each question gets two attempts):")
    for why, k in reasons.most_common(6):
        print(f"    {k:>5}×  {why}")


def main() -> int:
    """Entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--root", default=None)
    ap.add_argument("--scale-root", default=None, help="folder with ~1,000 ingested CVs for the latency row")
    ap.add_argument("--llm", action="store_true", help="also run with the configured language model")
    args = ap.parse_args()
    os.environ.setdefault("CVRAG_LLM_URL", os.environ.get("CVRAG_LLM_URL", "http://127.0.0.1:11434"))
    today = dt.date.today()
    root = Path(args.root or tempfile.mkdtemp(prefix="cvrag-asst-"))
    prepare(root, args.n, args.seed)
    from cvrag_desktop.catalog.db import Catalog
    from cvrag_desktop.config import app_paths

    cat = Catalog(app_paths().catalog_db)
    truth = load_truth(root, cat)
    cat.close()
    qs = build_questions(truth, random.Random(args.seed), today)
    counts = ", ".join(f"{c} {sum(q['cat'] == c for q in qs)}" for c in dict.fromkeys(q["cat"] for q in qs))
    print(f"corpus: {len(truth)} CVs in {root}; {len(qs)} questions ({counts})")
    hw = build_handwritten(truth, random.Random(f"handwritten:{args.seed}"), today)
    counts = ", ".join(f"{c} {sum(q['cat'] == c for q in hw)}" for c in dict.fromkeys(q["cat"] for q in hw))
    print(f"hand-written: {len(hw)} questions ({counts})")
    print_tables("no LLM (deterministic mode)", run(root, qs, truth, False, today))
    print_handwritten("hand-written questions (no LLM)", run(root, hw, truth, False, today))
    from assistant_rows import build_rows, print_rows, run_rows  # imports this module: not at the top

    rows = build_rows(truth, random.Random(f"rows:{args.seed}"), today)
    print_rows("typo, follow-up, credential, gap, foreign (no LLM, assistant_rows.py)", run_rows(rows, truth))
    if args.llm:
        print_tables("with the configured LLM", run(root, qs, truth, True, today))
        print_handwritten("hand-written questions (with the configured LLM)", run(root, hw, truth, True, today))
    if args.scale_root:
        sroot = Path(args.scale_root)
        prepare(sroot, 1000, args.seed + 1)
        cat = Catalog(app_paths().catalog_db)
        struth = load_truth(sroot, cat)
        cat.close()
        sq = build_questions(struth, random.Random(args.seed), today)
        res = run(sroot, sq, struth, False, today)
        firsts = [r["first_ms"] for r in res["rows"]]
        print(f"\n## latency at {len(struth)} CVs (no LLM, {len(sq)} questions)\n")
        print(f"question → first evidence: p50 {pct(firsts, 50):.0f} ms, p95 {pct(firsts, 95):.0f} ms, "
              f"mean {statistics.mean(firsts):.0f} ms")
        by_route: dict[str, list[float]] = {}
        for r in res["rows"]:
            by_route.setdefault(r["route"], []).append(r["first_ms"])
        for k, v in sorted(by_route.items()):
            print(f"  {k:<16} n={len(v):<4} p50 {pct(v, 50):>6.0f} ms  p95 {pct(v, 95):>6.0f} ms")
        print_tables(f"quality at {len(struth)} CVs (no LLM)", res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
