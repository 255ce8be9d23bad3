"""``cvrag-desktop --self-test``: prove that an installed or frozen build works, offline.

The checks a recruiter's IT department (and CI) can run on a machine with no network and no
display: a throwaway data folder, the models loaded from disk, the bundled synthetic sample
CVs imported, the trained section-kind model read, one search, one question answered in deterministic mode (no language model),
a CSV export, a job match, a subject-access export of one person (nothing about the
others), the main window built on Qt's offscreen platform, and the LLM gateway's
import. Each step prints its time; the exit code is 0 only when every step passed.

Nothing here touches the user's real data folder: ``CVRAG_HOME`` points at a temporary
folder for the whole run and is removed afterwards.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from cvrag_desktop.app.assembly import App
from cvrag_desktop.catalog.csv_export import export_candidates_csv
from cvrag_desktop.config import app_paths
from cvrag_desktop.errors import SelfTestFailure
from cvrag_desktop.ingestion.layout.section_kinds import MODEL_FILE, bundled_model
from cvrag_desktop.ingestion.layout.textline import TextLine
from cvrag_desktop.ingestion.normalize import normalize_document
from cvrag_desktop.ingestion.read.extracted import ExtractedDoc
from cvrag_desktop.ingestion.read.ocr import get_engine
from cvrag_desktop.llm.gateway import load_litellm
from cvrag_desktop.text.vocab.resources import resources_dir
from cvrag_desktop.ui.dialogs.selftest_window import build_main_window

__all__ = ["SelfTest", "SelfTestFailure", "bundled_samples", "run_self_test"]
SAMPLE_COUNT = 4  # CVs generated when no bundled samples are found (a source checkout)
SAMPLE_SEED = 11


@dataclass
class SelfTest:
    """State shared by the steps of one run."""

    home: Path
    samples: Path | None
    out: Callable[[str], None] = print
    svc: object | None = None
    facts: dict = field(default_factory=dict)
    times: dict[str, float] = field(default_factory=dict)

    def step(self, name: str, fn: Callable[[], str]) -> None:
        """Run one step, print ``[ok] name  seconds  detail``; re-raise after printing a failure."""
        t0 = time.perf_counter()
        try:
            detail = fn()
        except BaseException as exc:
            self.times[name] = time.perf_counter() - t0
            self.out(f"[FAIL] {name:<14} {self.times[name]:6.2f} s  {type(exc).__name__}: {exc}")
            raise
        self.times[name] = time.perf_counter() - t0
        self.out(f"[ok]   {name:<14} {self.times[name]:6.2f} s  {detail}")


def bundled_samples() -> Path | None:
    """The folder of synthetic sample CVs shipped with a frozen build (``samples/``), if any."""
    folder = resources_dir().parent / "samples"
    return folder if any(folder.glob("*.pdf")) else None


def _prepare_environment(home: Path) -> None:
    """A throwaway home, deterministic mode, and Qt's offscreen platform for this process."""
    os.environ["CVRAG_HOME"] = str(home)
    os.environ["CVRAG_NO_LLM"] = "1"
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


def _step_models(t: SelfTest) -> str:
    from cvrag_desktop.index.embeddings import shared_embedder

    embedder = shared_embedder(app_paths().models_dir)
    r = embedder.resolution
    vec = embedder.dense_array(["python developer with kafka"])
    terms, _weights = embedder.sparse_query("python developer with kafka")
    if vec.shape != (1, 384) or not terms:
        raise SelfTestFailure(f"the models gave no vectors (dense {vec.shape}, sparse terms {len(terms)})")
    return f"dense ONNX from {r.dense_onnx_source}, tokenizer from {r.tokenizer_source}, BM25 stopwords"


def _step_trained_model(t: SelfTest) -> str:
    """The section-kind model from ``resources/models`` reads a history under a heading no lexicon knows."""
    model = bundled_model()
    if model is None:
        raise SelfTestFailure(f"the trained model {MODEL_FILE} is missing from {resources_dir() / 'models'}")
    rows = [("Imogen Fairweather", 20.0, True), ("Registered Nurse", 11.0, False), ("Work", 12.0, True),
            ("Staff Nurse, Riverside Hospital", 10.0, True),
            ("03/2019 – 08/2023", 10.0, False), ("• Cared for patients on a busy surgical ward.", 10.0, False),
            ("Care Assistant, Elm House", 10.0, True), ("01/2016 – 02/2019", 10.0, False),
            ("• Helped residents with daily care.", 10.0, False), ("Sales Associate, Northgate Stores", 10.0, True),
            ("06/2013 – 12/2015", 10.0, False), ("• Served customers at the tills.", 10.0, False),
            ("Education", 12.0, True), ("BSc Nursing", 10.0, True),
            ("University of Eastbrook", 10.0, False), ("2012 – 2015", 10.0, False), ("Skills", 12.0, True),
            ("Wound care", 10.0, False), ("Triage", 10.0, False)]
    lines, y = [], 40.0
    for text, size, bold in rows:
        lines.append(TextLine(text=text, page=0, bbox=(50, y, 50 + 5 * len(text), y + size), size=size, bold=bold))
        y += size + 6
    doc = ExtractedDoc(lines=lines, page_count=1, method="pymupdf", page_sizes=[(595.0, 842.0)])
    firms = [e.company for e in normalize_document(doc, kinds=model)[0].experiences]
    if firms != ["Riverside Hospital", "Elm House", "Northgate Stores"]:
        raise SelfTestFailure(f"the trained model did not read the history under an unknown heading: {firms}")
    return f"{MODEL_FILE} ({model.path.stat().st_size:,} bytes) read a history under an unknown heading"


def _step_ocr(t: SelfTest) -> str:
    engine = get_engine()
    if engine is None:
        raise SelfTestFailure("no OCR engine could be loaded (RapidOCR models missing?)")
    return f"engine {engine.name} loaded"


def _step_samples(t: SelfTest) -> str:
    if t.samples is not None:
        return f"{len(list(t.samples.glob('*.pdf')))} bundled sample CVs in {t.samples}"
    t.samples = t.home / "samples"
    report = App().library.generate(SAMPLE_COUNT, SAMPLE_SEED, t.samples, use_llm=False)
    if report["failed"] or not report["generated"]:
        raise SelfTestFailure(f"the CV factory failed: {report['failed']}")
    return f"no bundled samples: generated {len(report['generated'])} synthetic CVs"


def _step_ingest(t: SelfTest) -> str:
    t.svc = svc = App()
    expected = len(list(t.samples.glob("*.pdf")))
    report = svc.library.ingest([t.samples], use_llm=False, workers=1)
    if report.failed or report.ingested != expected:
        raise SelfTestFailure(f"ingested {report.ingested} of {expected}; failed: {report.failed}")
    rows = svc.people.list_candidates()
    t.facts["rows"] = rows
    return f"{report.ingested} CVs parsed in a sandboxed worker and indexed, {len(rows)} candidates"


def _probe_skills(rows: list[dict], n: int = 3) -> list[str]:
    """Up to ``n`` skills the sample candidates have (the search and the question ask for them)."""
    skills = [s for row in rows for s in row.get("skills") or [] if s and s.isascii() and len(s) > 2]
    if not skills:
        raise SelfTestFailure("no sample candidate has a skill to search for")
    return list(dict.fromkeys(skills))[:n]


def _step_search(t: SelfTest) -> str:
    skill = t.facts["skill"] = _probe_skills(t.facts["rows"], 1)[0]
    hits = t.svc.search.search(skill, None, k=5, strategy="hybrid")
    if not hits:
        raise SelfTestFailure(f"a hybrid search for {skill!r} found nothing")
    return f"hybrid search {skill!r}: {len(hits)} hits"


def _step_question(t: SelfTest) -> str:
    """A question about a skill some sample has must be answered with citations, without a model.

    Up to three skills are tried: the check is that the question path works end to end in the
    build, not how well the rules phrase one particular skill."""
    tried = []
    for skill in _probe_skills(t.facts["rows"]):
        question = f"Who has {skill}?"
        result = t.svc.chat.ask(question, use_llm=False)
        if result["mode"] == "llm":
            raise SelfTestFailure("the question was answered by a language model in deterministic mode")
        if result["status"] == "answered" and result["citations"]:
            return f"{question!r}: answered in deterministic mode, {len(result['citations'])} citations"
        tried.append(f"{question!r} -> {result['status']}")
    raise SelfTestFailure(f"no question was answered with citations: {'; '.join(tried)}")


def _step_export(t: SelfTest) -> str:
    path = t.home / "export" / "candidates.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    n = export_candidates_csv(t.svc.people.list_candidates(), path)
    if n != len(t.facts["rows"]) or path.stat().st_size == 0:
        raise SelfTestFailure(f"the CSV has {n} rows, expected {len(t.facts['rows'])}")
    return f"{n} rows, {path.stat().st_size} bytes"


def _step_jobmatch(t: SelfTest) -> str:
    """A short job description asking for a skill a sample has: read, ranked, and that sample's cell met."""
    skill = _probe_skills(t.facts["rows"], 1)[0]
    jd = f"Sample role for the self-test.\nRequirements:\n- {skill} (must have)\n"
    result = t.svc.jobs.match_jd(jd, use_llm=False)
    asked = [s.casefold() for s in result["requirements"]["must_have_skills"]]
    if skill.casefold() not in asked:
        raise SelfTestFailure(f"the job description's must-have {skill!r} was not read (read: {asked})")
    met = [c for c in result["candidates"] if c["met"]]
    if not met:
        raise SelfTestFailure(f"no candidate meets {skill!r}, although a sample lists it")
    return f"must-have {skill!r}: {len(result['candidates'])} ranked, {len(met)} meet it ({result['mode']} mode)"


def _step_access_export(t: SelfTest) -> str:
    """A subject-access export of the first sample person: a zip of their records only, audited."""
    import zipfile

    rows = t.facts["rows"]
    person = rows[0]["id"]
    report = t.svc.compliance.export_subject(person, t.home / "export" / "subject.zip")
    with zipfile.ZipFile(report["path"]) as z:
        names = z.namelist()
        text = "".join(z.read(n).decode("utf-8", "replace") for n in names if n.endswith((".json", ".txt", ".csv")))
    others = [r["name"] for r in rows[1:] if r.get("name") and r.get("name") != rows[0].get("name")]
    leaked = [n for n in others if n in text]
    if report["documents"] < 1 or not names:
        raise SelfTestFailure(f"the access export holds nothing: {report}")
    if leaked:
        raise SelfTestFailure(f"the access export of one person names {len(leaked)} other sample people")
    return (f"{len(names)} files, {report['documents']} document(s), {report['originals']} original(s), "
            f"{report['audit_entries']} audit entries; no other sample person named")


def _step_window(t: SelfTest) -> str:
    return build_main_window(t.svc)


def _step_llm_stack(t: SelfTest) -> str:
    import importlib.util

    if importlib.util.find_spec("litellm") is None:
        return "LiteLLM not installed: deterministic mode only (install the [llm] extra for Ollama)"
    from importlib import metadata


    load_litellm()
    return f"LiteLLM {metadata.version('litellm')} imports offline (no model is called)"


STEPS: tuple[tuple[str, Callable[[SelfTest], str]], ...] = (
    ("models", _step_models),
    ("trained model", _step_trained_model),
    ("ocr", _step_ocr),
    ("samples", _step_samples),
    ("ingest", _step_ingest),
    ("search", _step_search),
    ("question", _step_question),
    ("export csv", _step_export),
    ("job match", _step_jobmatch),
    ("access export", _step_access_export),
    ("window", _step_window),
    ("llm stack", _step_llm_stack),
)


def run_self_test(samples: Path | None = None, out: Callable[[str], None] = print) -> int:
    """Run every step in a temporary home; 0 when all passed, 1 otherwise (details, no traceback)."""
    started = time.perf_counter()
    home = Path(tempfile.mkdtemp(prefix="cvrag-selftest-"))
    saved = {k: os.environ.get(k) for k in ("CVRAG_HOME", "CVRAG_NO_LLM", "QT_QPA_PLATFORM")}
    _prepare_environment(home)
    t = SelfTest(home=home, samples=samples or bundled_samples(), out=out)
    frozen = getattr(sys, "frozen", False)
    out(f"CV RAG Desktop self-test ({'frozen build' if frozen else 'Python ' + sys.version.split()[0]}, "
        f"{sys.platform}); temporary data folder {home}")
    code = 0
    try:
        for name, fn in STEPS:
            t.step(name, lambda fn=fn: fn(t))
    except Exception as exc:
        code = 1
        log = Path(tempfile.gettempdir()) / "cvrag-selftest-error.log"
        try:
            log.write_text("".join(traceback.format_exception(exc)), encoding="utf-8")
            out(f"self-test FAILED; details in {log}")
        except OSError:
            out("self-test FAILED")
    finally:
        if t.svc is not None:
            t.svc.close()
        shutil.rmtree(home, ignore_errors=True)
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    if code == 0:
        out(f"self-test passed in {time.perf_counter() - started:.1f} s")
    return code
