"""Load a shard that has no seal in a child process first: damage that would abort the app stops the child.

A shard left without a seal (a crash or a kill while it was open, or a seal of an older version)
cannot be compared with anything, and some damage is not an error Python can catch: random bytes
in the id tracker make Edge ask for 50-70 GB and abort the process ("memory allocation of …
failed", exit 134); a broken payload index can panic inside Rust. So before this process loads
such a shard, :func:`probe_shard` loads it in a spawned child, reads every point (payload and
vectors) and closes it cleanly. The child's standard error (Rust writes to file descriptor 2
directly) goes to ``<index>/probe.log``, never to the user. A child that exits cleanly has
replayed the WAL, closed the shard and sealed it, so the parent's own seal check then passes; a
child that dies or fails names the damage in plain words and the parent sets the shard aside.

Cost (measured, ``docs/index.md``): a spawned interpreter plus one extra load, only after a crash.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
from pathlib import Path

import qdrant_edge as qe

from cvrag_desktop.index.edge.files import write_seal

log = logging.getLogger(__name__)

PROBE_LOG = "probe.log"
PROBE_TIMEOUT = 600.0  # a very large shard on a slow disk; a hung child counts as damage
_FAILED = 3  # the child's exit code when Edge raised an error (its words are in the log)
_BUSY = 4  # another process holds the shard's own lock: not damage
STARTED = b"probe started\n"  # written first: a child that dies before it never reached the shard


def _child(shard: str, folder: str, log_path: str) -> None:
    """In the child: quiet fd 1 and 2, load the shard, read every point, close and seal it."""
    fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.write(fd, STARTED)
    try:
        edge = qe.EdgeShard.load(shard)
        edge.info()
        offset = None
        while True:
            _, offset = edge.scroll(qe.ScrollRequest(offset=offset, limit=256, with_payload=True, with_vector=True))
            if offset is None:
                break
        edge.count(qe.CountRequest(exact=True))
        edge.flush()
        edge.close()
        write_seal(Path(folder), Path(shard))
    except BaseException as exc:  # a Rust panic is pyo3's PanicException (a BaseException)
        if "WouldBlock" in str(exc):
            os._exit(_BUSY)
        os.write(fd, f"\nprobe failed: {type(exc).__name__}: {exc}\n".encode(errors="replace"))
        os._exit(_FAILED)
    os._exit(0)


def _says(code: int | None) -> str:
    """The child's end in plain words (the engine's own output stays in the log)."""
    if code is None:
        return "loading it did not finish in time"
    if code == _FAILED:
        return "the search engine could not read it"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"loading it stopped the search engine ({name})"
    return f"loading it stopped the search engine (exit code {code})"


class ProbeBusy(Exception):
    """The child found the shard's own lock held by another process."""


def probe_shard(folder: Path, shard: Path) -> str | None:
    """Load and read the shard in a child process; None when it is sound, else what went wrong (plain words).

    Raises :class:`ProbeBusy` when another process holds the shard. A sound shard is left closed and sealed by the child. Starting the child itself failing (no
    memory for a process) is not damage: None, and the parent loads it as before.
    """
    log_path = folder / PROBE_LOG
    ctx = multiprocessing.get_context("spawn")
    try:
        proc = ctx.Process(target=_child, args=(str(shard), str(folder), str(log_path)), daemon=True)
        proc.start()
    except OSError as exc:
        log.warning("could not check the search index in a separate process (%s): it is opened as it is", exc)
        return None
    proc.join(PROBE_TIMEOUT)
    if proc.is_alive():
        proc.kill()
        proc.join()
        return _says(None)
    if proc.exitcode == 0:
        return None
    if proc.exitcode == _BUSY:
        raise ProbeBusy(str(shard))
    try:
        text = log_path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    detail = text.strip()[-2000:]
    log.debug("the index probe ended with %s: %s", proc.exitcode, detail)
    if not text.startswith(STARTED.decode()):  # the child failed to start (not the shard's doing)
        log.warning("could not check the search index in a separate process (exit code %s): it is opened as it is",
                    proc.exitcode)
        return None
    return _says(proc.exitcode)
