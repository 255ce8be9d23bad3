"""One running application per data folder.

A second ``cvrag-desktop`` on the same data must not open the catalog or the search
index (Qdrant local mode allows one client per folder). The first instance holds an
OS-level exclusive lock on ``<data_dir>/cvrag-desktop.lock`` (``fcntl.flock`` on
POSIX, ``msvcrt.locking`` on Windows). The OS drops the lock when the process dies,
so a crash never leaves a stale lock behind: the file may remain, the lock does not.
The holder's pid is written into the file only to tell the user who holds it.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import IO

LOCK_NAME = "cvrag-desktop.lock"


class SingleInstanceLock:
    """An exclusive, crash-safe lock file; ``acquire()`` is False when another process holds it."""

    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / LOCK_NAME
        self._fh: IO[str] | None = None

    @property
    def held(self) -> bool:
        """True while this object holds the lock."""
        return self._fh is not None

    def acquire(self) -> bool:
        """Take the lock without waiting; False if another process (or object) holds it."""
        if self._fh is not None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fh = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - kept open while held
        try:
            _lock(fh)
        except OSError:
            fh.close()
            return False
        fh.seek(0)
        fh.truncate()
        fh.write(f"{os.getpid()}\n")
        fh.flush()
        self._fh = fh
        return True

    def release(self) -> None:
        """Give the lock up (also happens implicitly when the process exits)."""
        if self._fh is None:
            return
        with contextlib.suppress(OSError):
            _unlock(self._fh)
        self._fh.close()
        self._fh = None

    def holder_pid(self) -> int | None:
        """The pid recorded by the current (or last) holder, if readable."""
        try:
            text = self.path.read_text(encoding="utf-8").strip()
        except OSError:
            return None
        return int(text) if text.isdigit() else None

    def __enter__(self) -> SingleInstanceLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _lock(fh: IO[str]) -> None:
        fh.seek(0)
        msvcrt.locking(fh.fileno(), msvcrt.LK_NBLCK, 1)

    def _unlock(fh: IO[str]) -> None:
        fh.seek(0)
        msvcrt.locking(fh.fileno(), msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _lock(fh: IO[str]) -> None:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)

    def _unlock(fh: IO[str]) -> None:
        fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
