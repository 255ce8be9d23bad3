"""Paths honour CVRAG_HOME; settings validate and persist."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from cvrag_desktop.config import Settings, app_paths, load_settings, save_settings


def test_cvrag_home_overrides_every_folder(_isolated_home):
    p = app_paths()
    for d in (p.data_dir, p.config_dir, p.log_dir):
        assert str(d).startswith(str(_isolated_home))


def test_settings_round_trip_and_env_override(monkeypatch):
    s = Settings(workers=3, ocr_enabled=False)
    save_settings(s)
    monkeypatch.setenv("CVRAG_LLM_URL", "http://127.0.0.1:1234/")
    loaded = load_settings()
    assert loaded.workers == 3 and loaded.ocr_enabled is False
    assert loaded.llm_base_url == "http://127.0.0.1:1234"


def test_invalid_settings_rejected():
    with pytest.raises(ValidationError):
        Settings(workers=0)
    with pytest.raises(ValidationError):
        Settings(llm_base_url="ftp://x")


def test_corrupt_settings_file_falls_back_to_defaults():
    p = app_paths().ensure()
    p.settings_file.write_text("{not json")
    assert load_settings().workers == Settings().workers
