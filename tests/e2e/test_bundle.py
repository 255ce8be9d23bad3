"""Delivery acceptance: the offline wheelhouse and the frozen app work with the network blocked.

Slow (minutes: a wheelhouse download and a PyInstaller build), so they run only when asked:
``make bundle-test`` (``CVRAG_BUNDLE_TESTS=1``), which ``.ci/run`` calls after ``make test``.

"Network blocked" means two fences: a new network namespace with only loopback up
(``unshare -n``) when the machine allows it — root on Linux, as in CI — and, always, proxy
variables pointing every HTTP(S) client at a dead loopback port, plus pip's ``--no-index``
with an empty pip configuration, so nothing can reach a package index.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEAD_PROXY = "http://127.0.0.1:9"  # the discard port: nothing answers
FROZEN = ROOT / "dist" / "cvrag-desktop" / ("cvrag-desktop.exe" if sys.platform == "win32" else "cvrag-desktop")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not os.environ.get("CVRAG_BUNDLE_TESTS"),
                       reason="delivery tests run with CVRAG_BUNDLE_TESTS=1 (make bundle-test)"),
]


@functools.cache
def can_unshare_network() -> bool:
    """True when ``unshare -n`` (a fresh network namespace) works here."""
    if not sys.platform.startswith("linux") or shutil.which("unshare") is None:
        return False
    return subprocess.run(["unshare", "-n", "true"], capture_output=True, check=False).returncode == 0


def offline_env(home: Path) -> dict[str, str]:
    """An offline run's environment: dead proxies, no pip index or config, a throwaway HOME."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PIP_", "CVRAG_", "VIRTUAL_ENV", "PYTHONPATH"))
           and k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update({
        "HOME": str(home), "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_CONFIG_HOME": str(home / ".config"), "XDG_CACHE_HOME": str(home / ".cache"),
        "http_proxy": DEAD_PROXY, "https_proxy": DEAD_PROXY, "HTTP_PROXY": DEAD_PROXY, "HTTPS_PROXY": DEAD_PROXY,
        "all_proxy": DEAD_PROXY, "ALL_PROXY": DEAD_PROXY, "no_proxy": "", "NO_PROXY": "",
        "PIP_CONFIG_FILE": os.devnull, "PIP_NO_INDEX": "1", "HF_HUB_OFFLINE": "1", "QT_QPA_PLATFORM": "offscreen",
    })
    return env


def offline(cmd: list[str]) -> list[str]:
    """``cmd`` inside a new network namespace with only loopback up (when the machine allows it)."""
    if not can_unshare_network():
        return cmd
    return ["unshare", "-n", "sh", "-c", 'ip link set lo up 2>/dev/null || true; exec "$@"', "offline", *cmd]


def run(cmd: list[str], env: dict[str, str], timeout: float) -> subprocess.CompletedProcess:
    """Run a command, echo its output (the CI log shows step times); fail with it on a non-zero exit."""
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    print(f"$ {' '.join(cmd)}\n{proc.stdout}{proc.stderr}")
    assert proc.returncode == 0, f"exit {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
    return proc


@pytest.fixture(scope="module")
def wheelhouse(tmp_path_factory) -> Path:
    """``dist/wheelhouse`` when ``make wheelhouse`` made it, else a fresh one (needs the package index)."""
    ready = ROOT / "dist" / "wheelhouse"
    if (ready / "requirements.lock").is_file() and os.environ.get("CVRAG_REUSE_WHEELHOUSE"):
        return ready
    out = tmp_path_factory.mktemp("wheelhouse")
    subprocess.run([sys.executable, str(ROOT / "packaging" / "wheelhouse.py"), "--out", str(out)], check=True,
                   timeout=1200)
    return out


def test_wheelhouse_installs_and_runs_with_the_network_blocked(wheelhouse, tmp_path):
    home, prefix = tmp_path / "home", tmp_path / "app"
    home.mkdir()
    env = offline_env(home)
    print(f"network namespace: {'yes' if can_unshare_network() else 'no (proxy fence only)'}")
    lock = (wheelhouse / "requirements.lock").read_text(encoding="utf-8")
    assert "--hash=sha256:" in lock and "cvrag-desktop==" in lock
    assert (wheelhouse / "docs" / "llm.md").is_file() and (wheelhouse / "install.ps1").is_file()
    run(offline(["sh", str(wheelhouse / "install.sh"), "--prefix", str(prefix), "--python", sys.executable]),
        env, timeout=900)
    venv = prefix / "venv" / "bin"
    entry = home / ".local" / "share" / "applications" / "cvrag-desktop.desktop"
    assert f"Exec={venv / 'cvrag-desktop'}" in entry.read_text(encoding="utf-8")
    assert (prefix / "cvrag-desktop.svg").is_file()
    # the installed app finds its models and resources without the source tree
    doctor = json.loads(run(offline([str(venv / "cvrag"), "doctor", "--json"]), env, timeout=300).stdout)
    assert doctor["models"]["ok"], doctor["models"]
    assert doctor["models"]["tokenizer_dir"].startswith(str(prefix)), doctor["models"]
    assert doctor["ocr_engine"] == "rapidocr"
    assert doctor["llm"]["reachable"] is False and "ollama" in doctor["llm_advice"].lower()
    cvs = tmp_path / "cvs"
    run(offline([str(venv / "cvrag"), "generate", "--count", "3", "--seed", "5", "--no-llm", "--out", str(cvs)]),
        env, timeout=300)
    demo = run(offline([str(venv / "cvrag"), "demo", str(cvs)]), env, timeout=600).stdout
    assert "ingested 3, duplicates 0, failed 0" in demo and "(3 candidates)" in demo
    out = tmp_path / "diag.zip"
    run(offline([str(venv / "cvrag"), "diagnostics", "--out", str(out)]), env, timeout=300)
    with zipfile.ZipFile(out) as zf:
        assert {"README.txt", "versions.json", "settings.json", "doctor.json"} <= set(zf.namelist())
        assert json.loads(zf.read("versions.json"))["distributions"]["cvrag-desktop"]


def test_frozen_app_passes_its_self_test_with_the_network_blocked(tmp_path):
    assert FROZEN.is_file(), f"{FROZEN} is missing: run `make package` first"
    home = tmp_path / "home"
    home.mkdir()
    env = offline_env(home)
    out = run(offline([str(FROZEN), "--self-test"]), env, timeout=600).stdout
    assert "self-test passed" in out
    for step in ("models", "trained model", "ocr", "ingest", "search", "question", "export csv", "window", "llm stack"):
        assert f"[ok]   {step}" in out, step
    assert "bundled sample CVs" in out
    assert any((FROZEN.parent / d / "docs" / "llm.md").is_file() for d in ("_internal", "."))
    doctor = json.loads(run(offline([str(FROZEN), "--cli", "doctor", "--json"]), env, timeout=300).stdout)
    assert doctor["models"]["ok"] and doctor["data_dir"].startswith(str(home))
