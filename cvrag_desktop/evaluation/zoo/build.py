"""Build the layout zoo: every family's documents, their truth and line roles, and the manifest.

``python -m cvrag_desktop.evaluation.zoo.build --out build/zoo --seed 36 --per-family 56`` (``make zoo``).
Documents are cached by seed, family and index: one whose truth file already holds the same truth,
beside its PDF and roles, is not rendered again. A missing tool skips its engine's families with the
reason; a failed document is recorded with its stage and never stops the build. The manifest says
what was built, how long each family took, the alignment's own value recall and the size on disk.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from cvrag_desktop.evaluation.zoo import latex, rendercv
from cvrag_desktop.evaluation.zoo.align import found_parts, label_lines, value_recall
from cvrag_desktop.evaluation.zoo.engines import (
    ZooToolError,
    docx_to_pdf,
    npm_install,
    print_html,
    render_themes,
    tools_status,
)
from cvrag_desktop.evaluation.zoo.families import (
    FACTORY,
    FAILED_THEMES,
    HELD_OUT,
    HTML,
    JSONRESUME,
    JSONRESUME_THEMES,
    LATEX,
    RENDERCV,
    THEME_NOT_PRINTED,
    WORD,
    Family,
    select,
)
from cvrag_desktop.evaluation.zoo.jsonresume import to_resume
from cvrag_desktop.evaluation.zoo.pages import build_page
from cvrag_desktop.evaluation.zoo.plan import ZooDoc, plan_family, printed_record, truth_record
from cvrag_desktop.evaluation.zoo.word import FONTS as WORD_FONTS
from cvrag_desktop.evaluation.zoo.word import build_docx
from cvrag_desktop.factory.pipeline import atomic_write
from cvrag_desktop.factory.render import render_pdf
from cvrag_desktop.ingestion.read.extract import extract_document

MANIFEST_FORMAT = 1


@dataclass
class FamilyResult:
    """What one family's build did."""

    family: Family
    built: int = 0
    cached: int = 0
    failed: list[dict] = field(default_factory=list)  # {doc_id, stage, error}
    seconds: float = 0.0
    recall: dict[str, list[int]] = field(default_factory=dict)  # field -> [found, printed]

    def entry(self) -> dict:
        """The family's record in the manifest."""
        f = self.family
        return {"name": f.name, "engine": f.engine, "template": f.template, "version": f.version,
                "held_out": f.held_out, "documents": self.built + self.cached, "built": self.built,
                "cached": self.cached, "failed": self.failed, "seconds": round(self.seconds, 2),
                "seconds_per_built_document": round(self.seconds / self.built, 3) if self.built else None,
                "value_recall": self.recall}


def _paths(folder: Path, doc: ZooDoc) -> dict[str, Path]:
    stem = folder / doc.doc_id
    return {"truth": stem.with_suffix(".json"), "pdf": stem.with_suffix(".pdf"),
            "roles": folder / f"{doc.doc_id}.roles.jsonl", "docx": stem.with_suffix(".docx"),
            "resume": folder / f"{doc.doc_id}.resume.json", "html": stem.with_suffix(".html"),
            "tex": stem.with_suffix(".tex")}


def engine_input(fam: Family, doc: ZooDoc) -> bytes:
    """What the family's engine is given for this document (DOCX, HTML, JSON Resume, RenderCV or LaTeX input);
    empty for the factory's layouts, which render straight from the draft."""
    if fam.engine == WORD:
        return build_docx(fam.template, printed_record(doc.draft), WORD_FONTS[doc.index % len(WORD_FONTS)])
    if fam.engine == HTML:
        return build_page(fam.template, doc.draft, printed_record(doc.draft)).encode()
    if fam.engine == JSONRESUME:
        return json.dumps(to_resume(doc.draft, fam.template), ensure_ascii=False, indent=1).encode()
    if fam.engine == RENDERCV:
        data = rendercv.to_rendercv(doc.draft, fam.template, printed_record(doc.draft))
        return json.dumps(data, ensure_ascii=False, sort_keys=True).encode()
    if fam.engine == LATEX:
        return latex.to_tex(fam.template, doc.draft, printed_record(doc.draft)).encode()
    return b""


def _truth_bytes(doc: ZooDoc, seed: int, given: bytes) -> bytes:
    """The truth file; its ``zoo.input_sha256`` makes a change of the engine's input re-render the document."""
    truth = truth_record(doc, seed)
    if doc.family.engine == LATEX:  # what the class cannot print (plan.truth_record knows RenderCV's)
        truth["zoo"]["not_printed"] = latex.not_printed(doc.family.template, doc.draft)
    elif doc.family.template in THEME_NOT_PRINTED:  # a JSON Resume theme that never shows a field
        truth["zoo"]["not_printed"] = [f for f in THEME_NOT_PRINTED[doc.family.template]
                                       if f != "headline" or doc.draft.cv.headline]
    truth["zoo"]["input_sha256"] = hashlib.sha256(given).hexdigest() if given else None
    return json.dumps(truth, ensure_ascii=False, indent=1).encode()


def _cached(paths: dict[str, Path], truth: bytes) -> bool:
    try:
        return paths["truth"].read_bytes() == truth and paths["pdf"].is_file() and paths["roles"].is_file()
    except OSError:
        return False


def _render(fam: Family, todo: list[ZooDoc], folder: Path, work: Path, given: dict[str, bytes]) -> dict[str, str]:
    """Render the family's documents to PDF; ``{doc_id: error}`` for the ones that failed."""
    failed: dict[str, str] = {}
    if fam.engine == FACTORY:
        for doc in todo:
            try:
                atomic_write(_paths(folder, doc)["pdf"], render_pdf(doc.draft, layout=fam.template, font=doc.font))
            except Exception as exc:  # a layout's own failure is recorded for this document only
                failed[doc.doc_id] = f"{type(exc).__name__}: {exc}"
    elif fam.engine == WORD:
        for doc in todo:
            atomic_write(_paths(folder, doc)["docx"], given[doc.doc_id])
        errors = docx_to_pdf([_paths(folder, d)["docx"] for d in todo], folder, work / "libreoffice")
        failed = {d.doc_id: errors[str(_paths(folder, d)["docx"])] for d in todo
                  if str(_paths(folder, d)["docx"]) in errors}
    elif fam.engine == RENDERCV:
        jobs = [(json.loads(given[d.doc_id]), _paths(folder, d)["pdf"]) for d in todo]
        errors = rendercv.render(work.parent, jobs)
        failed = {d.doc_id: errors[str(_paths(folder, d)["pdf"])] for d in todo if str(_paths(folder, d)["pdf"]) in errors}
    elif fam.engine == LATEX:
        for doc in todo:
            atomic_write(_paths(folder, doc)["tex"], given[doc.doc_id])
        errors = latex.render([(given[d.doc_id].decode(), _paths(folder, d)["pdf"]) for d in todo])
        failed = {d.doc_id: errors[str(_paths(folder, d)["pdf"])] for d in todo if str(_paths(folder, d)["pdf"]) in errors}
    elif fam.engine == HTML:
        for doc in todo:
            atomic_write(_paths(folder, doc)["html"], given[doc.doc_id])
        failed = _print_all(todo, folder, work, {})
    else:
        jobs = []
        for doc in todo:
            p = _paths(folder, doc)
            atomic_write(p["resume"], given[doc.doc_id])
            jobs.append((p["resume"], p["html"]))
        errors = render_themes(work.parent / "npm" / "node_modules", fam.template, jobs)
        failed = _print_all(todo, folder, work, errors)
    return failed


def _print_all(todo: list[ZooDoc], folder: Path, work: Path, errors: dict[str, str]) -> dict[str, str]:
    """Print each document's HTML with Chromium unless its HTML failed (``errors`` by HTML path)."""
    failed = {}
    for doc in todo:
        p = _paths(folder, doc)
        if str(p["html"]) in errors:
            failed[doc.doc_id] = errors[str(p["html"])]
            continue
        try:
            print_html(p["html"], p["pdf"], work / "chromium")
        except ZooToolError as exc:
            failed[doc.doc_id] = str(exc)
    return failed


def build_family(fam: Family, seed: int, count: int, root: Path) -> FamilyResult:
    """Build (or find cached) the first ``count`` documents of ``fam``; record failures per document."""
    started = time.perf_counter()
    result = FamilyResult(fam)
    folder = root / "docs" / fam.name
    folder.mkdir(parents=True, exist_ok=True)
    docs = plan_family(fam, seed, count)
    given = {d.doc_id: engine_input(fam, d) for d in docs}
    truths = {d.doc_id: _truth_bytes(d, seed, given[d.doc_id]) for d in docs}
    todo = [d for d in docs if not _cached(_paths(folder, d), truths[d.doc_id])]
    result.cached = len(docs) - len(todo)
    for doc in todo:  # a stale PDF must never pass for a new one when its re-render fails
        for kind in ("truth", "pdf", "roles"):
            _paths(folder, doc)[kind].unlink(missing_ok=True)
    try:
        errors = _render(fam, todo, folder, root / ".work", given) if todo else {}
    except ZooToolError as exc:
        errors = {d.doc_id: str(exc) for d in todo}
    for doc in todo:
        paths = _paths(folder, doc)
        if doc.doc_id in errors or not paths["pdf"].is_file():
            result.failed.append({"doc_id": doc.doc_id, "stage": "render",
                                  "error": errors.get(doc.doc_id, "no PDF")})
            paths["truth"].unlink(missing_ok=True)
            continue
        try:
            # no OCR: every zoo document has a text layer (a photo's initials would cost seconds, add noise)
            lines = label_lines(extract_document(paths["pdf"], allow_ocr=False), json.loads(truths[doc.doc_id]))
        except Exception as exc:  # the product's reader refusing a rendered PDF is itself a finding
            result.failed.append({"doc_id": doc.doc_id, "stage": "read", "error": f"{type(exc).__name__}: {exc}"})
            paths["truth"].unlink(missing_ok=True)
            continue
        rows = "".join(json.dumps(ln.row(), ensure_ascii=False) + "\n" for ln in lines)
        atomic_write(paths["roles"], rows.encode())
        atomic_write(paths["truth"], truths[doc.doc_id])  # last: its presence marks the document done
        result.built += 1
    for doc in docs:
        _add_recall(result, _paths(folder, doc), truths[doc.doc_id])
    result.seconds = time.perf_counter() - started
    return result


def _add_recall(result: FamilyResult, paths: dict[str, Path], truth: bytes) -> None:
    if not _cached(paths, truth):
        return
    rows = [json.loads(line) for line in paths["roles"].read_text(encoding="utf-8").splitlines()]
    for fld, (got, total) in value_recall(found_parts(rows), json.loads(truth)).items():
        acc = result.recall.setdefault(fld, [0, 0])
        acc[0] += got
        acc[1] += total


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def build_zoo(root: Path, seed: int, per_family: int, families: list[Family], *, install: bool = True,
              log=print) -> dict:
    """Build the selected families under ``root`` and write ``root/manifest.json`` (merged with earlier runs)."""
    started = time.perf_counter()
    root.mkdir(parents=True, exist_ok=True)
    tools = tools_status()
    skipped: dict[str, str] = {}
    if install and any(f.engine == JSONRESUME for f in families):
        try:
            npm_install(root / "npm", JSONRESUME_THEMES)
        except ZooToolError as exc:
            skipped[JSONRESUME] = str(exc)
    if install and any(f.engine == RENDERCV for f in families):
        try:
            rendercv.install(root)
        except ZooToolError as exc:
            skipped[RENDERCV] = str(exc)
    tools["rendercv"] = str(rendercv.venv_python(root)) if rendercv.venv_python(root).is_file() else None
    for fam in families:
        missing = [t for t in fam.needs if not tools.get(t)]
        if missing and fam.engine not in skipped:
            skipped[fam.engine] = f"missing {', '.join(missing)} (make zoo-tools installs it)"
    results = []
    for fam in families:
        if fam.engine in skipped:
            log(f"{fam.name}: skipped ({skipped[fam.engine]})")
            continue
        res = build_family(fam, seed, per_family, root)
        results.append(res)
        log(f"{fam.name}: {res.built} built, {res.cached} cached, {len(res.failed)} failed, {res.seconds:.1f} s")
    manifest_path = root / "manifest.json"
    try:
        old = json.loads(manifest_path.read_text(encoding="utf-8"))
        if old.get("seed") != seed or old.get("per_family") != per_family:
            old = {}
    except (OSError, ValueError):
        old = {}
    entries = {e["name"]: e for e in old.get("families", [])}
    entries.update({r.family.name: r.entry() for r in results})
    shutil.rmtree(root / ".work" / "chromium", ignore_errors=True)
    manifest = {
        "generator": "cvrag-desktop layout zoo", "format": MANIFEST_FORMAT, "seed": seed,
        "per_family": per_family, "families": sorted(entries.values(), key=lambda e: e["name"]),
        "documents": sum(e["documents"] for e in entries.values()),
        "held_out": sorted(HELD_OUT), "skipped_engines": skipped, "failed_themes": FAILED_THEMES,
        "tools": tools, "last_run_seconds": round(time.perf_counter() - started, 1),
        "size_bytes": _size(root / "docs") if (root / "docs").is_dir() else 0,
    }
    atomic_write(manifest_path, json.dumps(manifest, ensure_ascii=False, indent=1).encode())
    return manifest


def main(argv: list[str] | None = None) -> int:
    """``make zoo``: build, print one line per family, exit 1 when an engine was skipped or a document failed."""
    ap = argparse.ArgumentParser(description="Build the layout zoo (docs/zoo.md).")
    ap.add_argument("--out", type=Path, default=Path("build/zoo"))
    ap.add_argument("--seed", type=int, default=36)
    ap.add_argument("--per-family", type=int, default=56)
    ap.add_argument("--families", default="all", help="comma-separated family names or engines, or 'all'")
    ap.add_argument("--no-install", action="store_true", help="install no missing npm theme or RenderCV")
    args = ap.parse_args(argv)
    if args.per_family < 1:
        print("--per-family must be at least 1", file=sys.stderr)
        return 2
    families = select(args.families)
    if not families:
        print(f"no family matches {args.families!r}", file=sys.stderr)
        return 2
    m = build_zoo(args.out, args.seed, args.per_family, families, install=not args.no_install)
    failed = sum(len(e["failed"]) for e in m["families"])
    print(f"{m['documents']} documents in {len(m['families'])} families; {failed} failed; "
          f"{m['last_run_seconds']} s; {m['size_bytes'] / 1e6:.1f} MB; manifest {args.out / 'manifest.json'}")
    return 1 if failed or m["skipped_engines"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
