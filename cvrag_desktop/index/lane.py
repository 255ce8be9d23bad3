"""The index lane: one background thread that indexes candidates as the import saves them.

Index writes go through one serialized lane (the GUI thread never waits on embedding):
the ingestion ``on_saved`` hook queues a candidate id, the lane takes what is queued in
batches and writes it; a full disk or a failure is recorded and left for the next start's
reconcile. A mixin of :class:`~cvrag_desktop.index.service.SearchService`, which owns the
queue and the counters.
"""

from __future__ import annotations

import logging
import queue
import threading

from cvrag_desktop.errors import DiskFull

log = logging.getLogger("cvrag_desktop.index.service")
BATCH_CANDIDATES = 16


class IndexLane:
    """Queueing candidates for the background index lane and waiting for it to drain."""

    def enqueue(self, candidate_id: str) -> None:
        """Queue a candidate for indexing on the single index lane (the ``on_saved`` hook)."""
        with self._idle:
            self._pending += 1
        if self._lane is None or not self._lane.is_alive():
            self._lane = threading.Thread(target=self._run_lane, name="cvrag-index-lane", daemon=True)
            self._lane.start()
        self._queue.put(candidate_id)

    def _run_lane(self) -> None:
        while True:
            batch = [self._queue.get()]
            while len(batch) < BATCH_CANDIDATES:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            ids = [b for b in batch if b]
            try:
                if ids:
                    self.index_candidates(ids)
            except DiskFull as exc:  # said by the import (services.ingest); reconcile at next start catches up
                log.info("indexing %d candidate(s) was refused: %s", len(ids), exc.message)
                self.unindexed += len(ids)
                self.disk_full = self.disk_full or exc
            except Exception:  # reconcile at next start repairs what was missed
                log.exception("indexing %s failed", ids)
            with self._idle:
                self._pending -= len(ids)
                self._idle.notify_all()
            if len(ids) < len(batch):  # close() sentinel
                return

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until every queued candidate is indexed; False on timeout."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending <= 0, timeout=timeout)
