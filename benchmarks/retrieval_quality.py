"""Retrieval quality against ground truth: recall@8 and MRR per query kind and strategy.

Generated corpus: ``cvrag generate`` CVs are ingested (no LLM) into a throwaway home and
indexed; queries are built from each CV's ground truth (skill, employer, title, degree,
language, years-range, and English paraphrases of a role). Real CVs: the labelled PDFs of
``real-cvs`` with queries from ``labels.json``.

Ranking is per candidate: the top chunks are deduplicated per candidate in rank order
(the citation layer) and the first 8 candidates are scored. recall@8 =
|relevant ∩ top-8| / min(|relevant|, 8); MRR = 1 / rank of the first relevant candidate.
Filters are checked for exactness against the catalog (same facts the index was built
from): no returned candidate may violate a filter and none may be missing.

    python benchmarks/retrieval_quality.py --count 150 --seed 11 [--real-cvs ../shared/data/real-cvs]
                                           [--backend local|qdrant-local]

``--backend qdrant-local`` scores the previous design (Qdrant local mode) on the same
corpus: the tables should match the local engine's (same maths, see docs/index.md).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
from collections import defaultdict
from pathlib import Path

K = 8
STRATEGIES = ("dense", "sparse", "hybrid")
PARAPHRASES = {
    "backend_developer": "builds server-side APIs and microservices",
    "frontend_developer": "develops user interfaces for web browsers",
    "data_scientist": "statistical modelling and predictive analytics on business data",
    "ml_engineer": "trains and deploys machine learning models to production",
    "data_engineer": "builds data pipelines and warehouses",
    "devops_sre": "keeps infrastructure reliable, automates deployments and cloud operations",
    "mobile_developer": "makes apps for iPhone and Android phones",
    "qa_engineer": "software testing and test automation",
    "ux_designer": "designs user experience, wireframes and usability research",
    "product_manager": "owns the product roadmap and prioritises features with stakeholders",
    "hr_specialist": "recruiting, hiring and employee relations",
    "marketing_specialist": "runs marketing campaigns, SEO and social media",
    "sales_representative": "sells to business customers and manages client accounts",
    "accountant": "bookkeeping, financial statements and tax filings",
    "nurse": "patient care in a hospital",
    "teacher": "teaches students in a school classroom",
    "mechanical_engineer": "designs mechanical parts with CAD",
    "supply_chain": "logistics, procurement and inventory planning",
}


def key(s: str) -> str:
    """The free-text comparison key used by the index."""
    from cvrag_desktop.text.keys import text_key

    return text_key(s)


def candidate_ranking(retriever, query: str, strategy: str) -> list[str]:
    """Candidates in rank order (chunks deduplicated per candidate), first K."""
    hits = retriever.search_hybrid(query, None, K * 6, mode=strategy, rerank=False)
    return list(dict.fromkeys(h.candidate_id for h in hits))[:K]


def score(ranked: list[str], relevant: set[str]) -> tuple[float, float]:
    """(recall@K, reciprocal rank) of one query."""
    found = sum(1 for c in ranked if c in relevant)
    rr = next((1.0 / (i + 1) for i, c in enumerate(ranked) if c in relevant), 0.0)
    return found / min(len(relevant), K), rr


def evaluate(retriever, queries: dict[str, list[tuple[str, set[str]]]]) -> str:
    """The recall@8 / MRR table per kind × strategy."""
    lines = [f"{'kind':<12}{'n':>4}  " + "  ".join(f"{s + ' R@8':>11} {'MRR':>5}" for s in STRATEGIES)]
    for kind, qs in queries.items():
        cells = []
        for strat in STRATEGIES:
            rs = [score(candidate_ranking(retriever, q, strat), rel) for q, rel in qs]
            cells.append(f"{sum(r for r, _ in rs) / len(rs):>11.3f} {sum(m for _, m in rs) / len(rs):>5.3f}")
        lines.append(f"{kind:<12}{len(qs):>4}  " + "  ".join(cells))
    return "\n".join(lines)


def sample(rng: random.Random, items: list, n: int) -> list:
    """Up to n items, deterministic for a seed."""
    return rng.sample(items, min(n, len(items)))


def generated_queries(truth: dict[str, dict], rng: random.Random, per_kind: int) -> dict:
    """Queries with relevant candidate sets from generated ground truth."""
    from cvrag_desktop.text.vocab.languages import language_key
    from cvrag_desktop.text.vocab.skills import skill_key

    by: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for cid, t in truth.items():
        for s in t["skills"]:
            by["skill"][s].add(cid)
        for e in t["experiences"]:
            if e.get("company"):
                by["employer"][e["company"]].add(cid)
            if e.get("title"):
                by["title"][e["title"]].add(cid)
        for ed in t["education"]:
            if ed.get("degree"):
                by["degree"][ed["degree"]].add(cid)
        for lang in t["languages"]:
            if lang not in ("Spanish", "English"):  # everyone in an es_ES corpus speaks both
                by["language"][lang].add(cid)
        by["paraphrase"][t["profile"]].add(cid)

    def related(kind: str, value: str) -> set[str]:  # every candidate the query is true of
        if kind == "skill":
            return {c for c, t in truth.items() if skill_key(value) in {skill_key(s) for s in t["skills"]}}
        if kind == "language":
            return {c for c, t in truth.items() if language_key(value) in {language_key(s) for s in t["languages"]}}
        if kind in ("employer", "title", "degree"):
            field = {"employer": "company", "title": "title", "degree": "degree"}[kind]
            rows = {"degree": "education"}.get(kind, "experiences")
            return {c for c, t in truth.items() if any(key(value) == key(e.get(field) or "") for e in t[rows])}
        return by[kind][value]

    out: dict[str, list[tuple[str, set[str]]]] = {}
    for kind in ("skill", "employer", "title", "degree", "language"):
        values = sample(rng, sorted(by[kind]), per_kind)
        out[kind] = [(v, related(kind, v)) for v in values]
    years = []
    for cid in sample(rng, sorted(truth), per_kind):
        t = truth[cid]
        y = int(t["years_of_experience"] or 0)
        title = t["current_title"] or t["headline"]
        if not title:
            continue  # no current role and no headline (an ended latest role): nothing to ask by title
        rel = {c for c, u in truth.items() if key(u["current_title"] or u["headline"] or "") == key(title)
               and y - 1 <= int(u["years_of_experience"] or 0) <= y + 1}
        years.append((f"{title} with {max(y - 1, 0)} to {y + 1} years of experience", rel))
    out["years-range"] = years
    out["paraphrase"] = [(PARAPHRASES[p], by["paraphrase"][p]) for p in sorted(by["paraphrase"]) if p in PARAPHRASES]
    return out


def real_queries(labels: list[dict], file_to_cid: dict[str, str]) -> dict:
    """Queries from labels.json (skills, employers, titles, degrees, names) of the real CVs."""
    out: dict[str, list[tuple[str, set[str]]]] = defaultdict(list)
    labelled = [lab for lab in labels if lab["file"] in file_to_cid]
    for kind, field in (("skill", "skills"), ("employer", "companies"), ("title", "job_titles"),
                        ("degree", "degrees"), ("name", "name")):
        seen: set[str] = set()
        for lab in labelled:
            values = lab.get(field) or []
            for v in [values] if isinstance(values, str) else values:
                if not v or key(v) in seen:
                    continue
                seen.add(key(v))
                rel = set()
                for other in labelled:
                    ov = other.get(field) or []
                    ov = [ov] if isinstance(ov, str) else ov
                    if any(key(v) == key(x) for x in ov):
                        rel.add(file_to_cid[other["file"]])
                out[kind].append((v, rel))
    return dict(out)


def filter_exactness(service, rows: list[dict], rng: random.Random) -> str:
    """Compare metadata-filter results with the same predicate evaluated on catalog rows."""
    from cvrag_desktop.index.filters import candidate_payload
    from cvrag_desktop.text.keys import text_key
    from cvrag_desktop.text.vocab.languages import language_key
    from cvrag_desktop.text.vocab.skills import skill_key

    payloads = {r["candidate_id"]: candidate_payload(r) for r in rows}
    checks = []
    skills = sorted({s for r in rows for s in r["skills"]})
    for s in sample(rng, skills, 15):
        checks.append(({"skills": [s]}, lambda p, s=s: skill_key(s) in p["skills"]))
    for lang in sorted({lang for r in rows for lang in r["languages"]})[:8]:
        checks.append(({"languages": [lang]}, lambda p, v=lang: language_key(v) in p["languages"]))
    for c in sample(rng, sorted({c for r in rows for c in r["companies"]}), 10):
        checks.append(({"companies": [c]}, lambda p, v=c: any(set(text_key(v).split()) <= set(x.split())
                                                                for x in p["companies"])))
    for d in sample(rng, sorted({d for r in rows for d in r["degrees"]}), 10):
        checks.append(({"degrees": [d]}, lambda p, v=d: any(set(text_key(v).split()) <= set(x.split())
                                                              for x in p["degrees"])))
    for lo, hi in ((None, 2), (3, 5), (5, None), (10, None), (4, 4)):
        f = {k: v for k, v in (("min_years", lo), ("max_years", hi)) if v is not None}
        checks.append((f, lambda p, lo=lo, hi=hi: p["years"] is not None and (lo is None or p["years"] >= lo)
                       and (hi is None or p["years"] <= hi)))
    violating = missing = returned = 0
    for f, pred in checks:
        got = {h["candidate_id"] for h in service.search("", f, k=200, strategy="metadata")}
        want = {c for c, p in payloads.items() if pred(p)}
        violating += len(got - want)
        missing += len(want - got)
        returned += len(got)
    return (f"filters checked: {len(checks)}  candidates returned: {returned}  "
            f"violating: {violating}  missing: {missing}")


def build(home: Path, inputs: list[Path], backend: str = "local"):
    """Ingest inputs into ``home`` and index them; returns (App, SearchService)."""
    os.environ["CVRAG_HOME"] = str(home)
    from cvrag_desktop.app.assembly import App
    from cvrag_desktop.index.service import SearchService

    if backend == "qdrant-local":  # the previous design, for comparison
        from cvrag_desktop.index.qdrant_store import QdrantStore

        SearchService._open = lambda self: QdrantStore(path=self.paths.data_dir / "qdrant")

    svc = App()
    if not svc.catalog.counts()["candidates"]:
        svc.library.ingest(inputs, use_llm=False)
    search = SearchService(svc.catalog, svc.paths, svc.settings)
    if search.store.count() != svc.catalog.counts()["chunks"]:
        print("index:", search.rebuild())
    return svc, search


def main() -> None:
    """Run the generated and real-CV evaluations and print the tables."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=150)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--per-kind", type=int, default=40)
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--backend", choices=("local", "qdrant-local"), default="local")
    ap.add_argument("--real-cvs", default=str(Path(__file__).resolve().parents[2] / "shared/data/real-cvs"))
    args = ap.parse_args()
    work = Path(args.workdir or tempfile.mkdtemp(prefix="cvrag-quality-"))
    rng = random.Random(args.seed)
    gen = work / f"gen-{args.count}-{args.seed}"
    if not gen.exists():
        from cvrag_desktop.factory.pipeline import generate_batch

        generate_batch(args.count, args.seed, gen, locale="es_ES", layout="mixed", use_llm=False)
    svc, search = build(work / f"home-{args.count}-{args.seed}", [gen], args.backend)
    rows = svc.catalog.candidate_rows()
    truth = {r["candidate_id"]: json.loads((gen / Path(r["source_path"]).with_suffix(".json").name).read_text())
             for r in rows}
    print(f"\n== generated corpus: {len(rows)} CVs, {svc.catalog.counts()['chunks']} chunks (recall@{K}, MRR) ==")
    print(evaluate(search.retriever(), generated_queries(truth, rng, args.per_kind)))
    print(filter_exactness(search, rows, rng))
    search.close()
    svc.close()
    real = Path(args.real_cvs)
    if (real / "labels.json").exists():
        svc, search = build(work / "home-real", [real / "pdf"], args.backend)
        rows = svc.catalog.candidate_rows()
        file_to_cid = {Path(r["source_path"]).name: r["candidate_id"] for r in rows}
        labels = json.loads((real / "labels.json").read_text())
        print(f"\n== real CVs: {len(rows)} CVs, {svc.catalog.counts()['chunks']} chunks (recall@{K}, MRR) ==")
        print(evaluate(search.retriever(), real_queries(labels, file_to_cid)))
        print(filter_exactness(search, rows, rng))
        search.close()
        svc.close()


if __name__ == "__main__":
    main()
