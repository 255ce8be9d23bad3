"""Settings and on-disk locations.

Every path the application writes to derives from :func:`app_paths`. ``CVRAG_HOME``
overrides all of them (tests and the demo use it to get a throwaway home); otherwise
the platform's conventional data/config/log folders are used (platformdirs).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs
from pydantic import BaseModel, ConfigDict, Field, field_validator

APP_NAME = "cvrag-desktop"


@dataclass(frozen=True)
class AppPaths:
    """The folders the application uses; created on first use."""

    data_dir: Path
    config_dir: Path
    log_dir: Path

    @property
    def catalog_db(self) -> Path:
        """SQLite catalog: the source of truth."""
        return self.data_dir / "catalog.sqlite3"

    @property
    def library_dir(self) -> Path:
        """Content-addressed copies of imported files."""
        return self.data_dir / "library"

    @property
    def index_dir(self) -> Path:
        """Local search index: an embedded Qdrant Edge shard + .lock (derived from the catalog; a Qdrant server only for a server URL)."""
        return self.data_dir / "index"

    @property
    def models_dir(self) -> Path:
        """User models folder (optional reranker etc.)."""
        return self.data_dir / "models"

    @property
    def settings_file(self) -> Path:
        """User settings (JSON)."""
        return self.config_dir / "settings.json"

    def ensure(self) -> AppPaths:
        """Create the folders if missing and return self."""
        for d in (self.data_dir, self.config_dir, self.log_dir, self.library_dir):
            d.mkdir(parents=True, exist_ok=True)
        return self


def app_paths() -> AppPaths:
    """Resolve the folders, honouring ``CVRAG_HOME`` (read each call, so tests can switch homes)."""
    home = os.environ.get("CVRAG_HOME")
    if home:
        root = Path(home).expanduser().resolve()
        return AppPaths(root / "data", root / "config", root / "logs")
    return AppPaths(
        Path(platformdirs.user_data_dir(APP_NAME)),
        Path(platformdirs.user_config_dir(APP_NAME)),
        Path(platformdirs.user_log_dir(APP_NAME)),
    )


class IngestLimits(BaseModel):
    """Guards against hostile or absurd inputs (decompression bombs, 10k-page PDFs).

    ``max_seconds`` and ``max_worker_mb`` are enforced on the parse worker process from
    outside (it is killed and replaced); the others are cheap checks made before the
    expensive work. A file that hits one is marked ``too_large`` with the limit named — except
    ``max_ocr_pages``: a scan whose OCR stops there is imported from the pages read, with a warning.
    """

    model_config = ConfigDict(extra="forbid")

    max_file_mb: int = Field(default=50, ge=1)
    max_pages: int = Field(default=100, ge=1)
    max_chars: int = Field(default=600_000, ge=1000)
    max_seconds: float = Field(default=60.0, gt=0)
    max_ocr_seconds: float = Field(default=120.0, ge=0)  # added to max_seconds once a file needs OCR
    max_ocr_pages: int = Field(default=10, ge=1)  # pages one file may OCR (~1.3 s each): the rest is kept unread
    max_worker_mb: int = Field(default=1536, ge=256)  # resident memory of one parse worker (at most)
    memory_budget_mb: int = Field(default=1536, ge=512)  # the import's whole process tree (ingestion/read/budget.py)
    max_objects: int = Field(default=200_000, ge=100)  # PDF objects (xref entries)
    max_streams: int = Field(default=20_000, ge=10)  # PDF streams
    max_inflated_mb: int = Field(default=256, ge=1)  # all PDF streams / DOCX parts, decompressed
    max_page_content_mb: int = Field(default=16, ge=1)  # one page's content incl. form XObjects it draws
    max_xobject_depth: int = Field(default=12, ge=1)  # form XObjects nested inside each other
    max_image_pixels: int = Field(default=60_000_000, ge=10_000)  # one image, as it decodes
    max_docx_parts: int = Field(default=2_000, ge=10)  # entries of a .docx zip
    max_table_cells: int = Field(default=50_000, ge=100)  # DOCX table cells read


class Settings(BaseModel):
    """User-editable settings, persisted as JSON in the config dir; env vars override."""

    model_config = ConfigDict(extra="ignore")

    llm_enabled: bool = True
    llm_base_url: str = "http://127.0.0.1:11434"
    llm_timeout_s: float = Field(default=60.0, gt=0)
    llm_breaker_failures: int = Field(default=3, ge=1)  # failed calls in a row that mark the model down
    llm_cooldown_s: float = Field(default=300.0, ge=0)  # how long a model marked down is not asked
    ocr_enabled: bool = True
    workers: int = Field(default=2, ge=1, le=32)
    index_url: str | None = None
    limits: IngestLimits = Field(default_factory=IngestLimits)

    @field_validator("llm_base_url")
    @classmethod
    def _url(cls, v: str) -> str:
        if not v.startswith(("http://", "https://")):
            raise ValueError("LLM URL must start with http:// or https://")
        return v.rstrip("/")


def load_settings(paths: AppPaths | None = None) -> Settings:
    """Read settings from the config dir (defaults when absent), then apply env overrides."""
    paths = paths or app_paths()
    data: dict = {}
    if paths.settings_file.exists():
        try:
            data = json.loads(paths.settings_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
    if os.environ.get("CVRAG_LLM_URL"):
        data["llm_base_url"] = os.environ["CVRAG_LLM_URL"]
    if os.environ.get("CVRAG_NO_LLM"):
        data["llm_enabled"] = False
    if os.environ.get("CVRAG_INDEX_URL"):
        data["index_url"] = os.environ["CVRAG_INDEX_URL"]
    return Settings.model_validate(data)


RANKING_SETTINGS = ("llm_enabled", "llm_base_url", "index_url")  # the model that ranks, the index searched


def save_settings(settings: Settings, paths: AppPaths | None = None) -> list[str]:
    """Persist settings atomically; the ranking settings that changed (the app audits them).

    The audit trail's anchor (:data:`AUDIT_ANCHOR_KEY`, not a setting the user edits) is kept as
    it is on disk, whatever the settings object held when it was loaded."""
    paths = (paths or app_paths()).ensure()
    before = load_settings(paths)
    data = json.loads(settings.model_dump_json())
    anchor = read_audit_anchor(paths.settings_file)
    if anchor is not None:
        data[AUDIT_ANCHOR_KEY] = anchor
    _write_json(paths.settings_file, data)
    return [k for k in RANKING_SETTINGS if getattr(before, k) != getattr(settings, k)]


AUDIT_ANCHOR_KEY = "audit_anchor"  # the audit head "<trail id>:<seq>:<hash>" (catalog/compliance/audit_anchor.py)


def _read_json(path: Path) -> dict | None:
    """The JSON object in a file ({} when there is no file; None when it is not readable JSON)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _write_json(path: Path, data: dict) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    tmp.replace(path)


def read_audit_anchor(settings_file: Path) -> str | None:
    """The audit chain's head anchored in the settings file, or None (an unreadable file has none)."""
    value = (_read_json(settings_file) or {}).get(AUDIT_ANCHOR_KEY)
    return value if isinstance(value, str) else None


def write_audit_anchor(settings_file: Path, value: str | None) -> None:
    """Store (None: remove) the audit chain's head in the settings file, keeping every setting (atomically)."""
    data = _read_json(settings_file)
    if data is None:  # a damaged settings file is not overwritten by the anchor (the settings stay the user's)
        raise OSError(f"{settings_file} is not readable JSON: the audit anchor was not written there")
    if value is None:
        data.pop(AUDIT_ANCHOR_KEY, None)
    else:
        data[AUDIT_ANCHOR_KEY] = value
    _write_json(settings_file, data)
