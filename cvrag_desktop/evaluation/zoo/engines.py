"""The external engines of the zoo: node (JSON Resume themes), headless Chromium, LibreOffice (and
XeLaTeX, which latex.py runs through :func:`run_tool`).

Each runs as a child process under ``nice`` with a deadline; a missing tool or a failed render is a
:class:`ZooToolError` with a short reason (never a raw traceback), recorded per document by the
build. Chromium resolves no host name (``--host-resolver-rules``): a theme's web fonts or CDN style
sheets fail at once instead of waiting on a network this machine does not have.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

NODE_SCRIPT = Path(__file__).with_name("node") / "render.js"
NICE = ("nice", "-n", os.environ.get("ZOO_NICE", "19"))
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
SOFFICE_NAMES = ("soffice", "libreoffice")


class ZooToolError(Exception):
    """An engine of the zoo is missing or failed on a document (the message says which and why)."""


def which(names: tuple[str, ...]) -> str | None:
    """The first of ``names`` found on PATH."""
    return next((p for p in (shutil.which(n) for n in names) if p), None)


def tools_status() -> dict[str, str | None]:
    """Where each external tool is (None when missing)."""
    return {"node": which(("node",)), "npm": which(("npm",)), "chromium": which(CHROMIUM_NAMES),
            "soffice": which(SOFFICE_NAMES), "xelatex": which(("xelatex",))}


def run_tool(cmd: list[str], timeout: float, what: str, *, fail: bool = True) -> str | None:
    """Run a build tool under ``nice``: its output, or None when it failed and ``fail`` is false."""
    try:
        return _run(cmd, timeout, what)
    except ZooToolError:
        if fail:
            raise
        return None


def _run(cmd: list[str], timeout: float, what: str) -> str:
    try:
        proc = subprocess.run([*NICE, *cmd], capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired as exc:
        raise ZooToolError(f"{what} took longer than {timeout:.0f} s") from exc
    except OSError as exc:
        raise ZooToolError(f"{what} could not start: {exc.strerror or exc}") from exc
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no message"]
        raise ZooToolError(f"{what} failed (exit {proc.returncode}): {tail[0][:200]}")
    return proc.stdout


def npm_install(prefix: Path, packages: dict[str, str], timeout: float = 900) -> None:
    """Install the pinned ``packages`` missing under ``prefix``/node_modules (one npm call)."""
    missing = [f"{p}@{v}" for p, v in packages.items() if not _installed(prefix, p, v)]
    if not missing:
        return
    npm = which(("npm",))
    if npm is None:
        raise ZooToolError("npm is not installed (make zoo-tools installs it)")
    prefix.mkdir(parents=True, exist_ok=True)
    if not (prefix / "package.json").exists():
        (prefix / "package.json").write_text('{"name": "cvrag-zoo-themes", "private": true}\n')
    _run([npm, "install", "--no-audit", "--no-fund", "--prefix", str(prefix), *missing], timeout,
         "npm install")


def _installed(prefix: Path, package: str, version: str) -> bool:
    meta = prefix / "node_modules" / package / "package.json"
    try:
        return json.loads(meta.read_text(encoding="utf-8")).get("version") == version
    except (OSError, ValueError):
        return False


def render_themes(modules: Path, theme: str, jobs: list[tuple[Path, Path]], timeout: float = 300) -> dict[str, str]:
    """Render resume JSON files to HTML with one theme; ``{html path: error}`` for the ones that failed."""
    node = which(("node",))
    if node is None:
        raise ZooToolError("node is not installed (make zoo-tools installs it)")
    if not jobs:
        return {}
    job_file = jobs[0][1].with_name(f".jobs-{os.getpid()}.json")
    job_file.write_text(json.dumps([{"resume": str(r), "html": str(h)} for r, h in jobs]), encoding="utf-8")
    try:
        out = _run([node, str(NODE_SCRIPT), str(modules), theme, str(job_file)], timeout, f"theme {theme}")
    finally:
        job_file.unlink(missing_ok=True)
    failed: dict[str, str] = {}
    seen = set()
    for line in out.splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue  # a theme's own console output
        if isinstance(row, dict) and "html" in row:
            seen.add(row["html"])
            if not row.get("ok"):
                failed[row["html"]] = str(row.get("error") or "unknown error")
    for _, html in jobs:
        if str(html) not in seen:
            failed.setdefault(str(html), "the theme printed no result")
    return failed


def print_html(html: Path, pdf: Path, profile: Path, timeout: float = 90) -> None:
    """Print an HTML file to PDF (A4) with headless Chromium, no network, no header or footer."""
    chromium = which(CHROMIUM_NAMES)
    if chromium is None:
        raise ZooToolError("chromium is not installed (make zoo-tools installs it)")
    tmp = pdf.with_name(f".{pdf.name}.tmp.pdf")
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
           "--no-first-run", "--disable-extensions", "--disable-background-networking",
           "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost", f"--user-data-dir={profile}",
           "--no-pdf-header-footer", "--run-all-compositor-stages-before-draw", "--virtual-time-budget=3000",
           f"--print-to-pdf={tmp}", html.resolve().as_uri()]
    try:
        for attempt in (1, 2):  # under load Chromium now and then exits 0 without writing: once more
            _run(cmd, timeout, "chromium")
            if tmp.is_file() and tmp.stat().st_size > 0:
                break
            if attempt == 2:
                raise ZooToolError("chromium wrote no PDF (twice)")
        os.replace(tmp, pdf)
    finally:
        tmp.unlink(missing_ok=True)


def docx_to_pdf(docx_files: list[Path], out_dir: Path, profile: Path, timeout: float = 600) -> dict[str, str]:
    """Print Word files to PDF with LibreOffice (one call for the batch, a private profile);
    ``{docx path: error}`` for the files that gave no PDF."""
    soffice = which(SOFFICE_NAMES)
    if soffice is None:
        raise ZooToolError("LibreOffice (soffice) is not installed (make zoo-tools installs it)")
    if not docx_files:
        return {}
    cmd = [soffice, f"-env:UserInstallation={profile.resolve().as_uri()}", "--headless", "--norestore",
           "--convert-to", "pdf", "--outdir", str(out_dir), *map(str, docx_files)]
    _run(cmd, timeout, "LibreOffice")
    return {str(d): "LibreOffice wrote no PDF" for d in docx_files
            if not (out_dir / d.with_suffix(".pdf").name).is_file()}
