"""Test-wide fixtures: a fresh CVRAG_HOME per test and no network beyond loopback."""

from __future__ import annotations

import ipaddress
import os
import socket
from pathlib import Path

import pytest

pytest_plugins = ["tests.support.ollama_stub"]

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

REAL_CVS = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-cvs"
if not REAL_CVS.exists():  # CI clones elsewhere; allow an override
    REAL_CVS = Path(os.environ.get("CVRAG_REAL_CVS", "/work/shared/data/real-cvs"))


class NetworkBlocked(RuntimeError):
    """Raised when a test tries to reach a non-loopback address."""


def _is_loopback(address) -> bool:
    if isinstance(address, tuple):
        host = address[0]
    else:  # AF_UNIX path
        return True
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    """Every test gets its own empty CVRAG_HOME and no LLM endpoint unless it sets one."""
    home = tmp_path / "cvrag_home"
    monkeypatch.setenv("CVRAG_HOME", str(home))
    monkeypatch.setenv("CVRAG_LLM_URL", "http://127.0.0.1:9")  # discard port: nothing answers
    yield home


@pytest.fixture(autouse=True)
def _fresh_llm_state():
    """The LLM probe cache and remembered endpoint quirks must not leak between tests (ports are reused)."""
    from cvrag_desktop.llm import clear_probe_cache
    from cvrag_desktop.llm.gateway import forget_endpoint_quirks

    clear_probe_cache()
    forget_endpoint_quirks()
    yield
    clear_probe_cache()
    forget_endpoint_quirks()


@pytest.fixture(autouse=True)
def _block_network(monkeypatch):
    """Refuse connections to anything but loopback; tests must never reach the internet."""
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex

    def guarded_connect(self, address):
        if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback(address):
            raise NetworkBlocked(f"network blocked in tests: {address!r}")
        return real_connect(self, address)

    def guarded_connect_ex(self, address):
        if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback(address):
            raise NetworkBlocked(f"network blocked in tests: {address!r}")
        return real_connect_ex(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", guarded_connect_ex)
    yield


@pytest.fixture
def real_cvs_dir() -> Path:
    """The shared folder of real public CVs with labels."""
    if not (REAL_CVS / "pdf").exists():
        pytest.skip("real-cvs dataset not available")
    return REAL_CVS


RSS_LIMIT_MB = 3 * 1024


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Print this pytest process's peak RSS (and its biggest child's) at the end of the run."""
    import resource
    import sys

    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale / 2**20
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * scale / 2**20
    verdict = "ok" if own <= RSS_LIMIT_MB else f"OVER the {RSS_LIMIT_MB} MB budget"
    terminalreporter.write_line(f"peak RSS of this pytest process: {own:.0f} MB ({verdict}); "
                                f"largest child process: {children:.0f} MB")
