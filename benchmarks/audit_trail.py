"""What the audit trail costs: append latency (one entry, a bulk of 100), verify and list at scale.

Run: ``.venv/bin/python benchmarks/audit_trail.py [--entries 100000]``. Prints a table; writes
only to a temporary folder. The appends run in the worker that performs an action (never on
the GUI thread), so the number to compare is the action's own cost (a screening change:
one catalog transaction).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from cvrag_desktop.catalog.compliance.audit import AUDIT_FILE, AuditLog


def _ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:8.2f} / {max(samples) * 1000:8.2f}"


def main() -> None:
    """Fill a trail to ``--entries`` and time appends, verify and a filtered listing."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--entries", type=int, default=100_000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        log = AuditLog(Path(tmp) / AUDIT_FILE)
        start = time.perf_counter()
        batch = 1000
        for i in range(0, args.entries, batch):
            log.record_many([("screening.status", [f"doc{(i + j) % 5000}"], {"from": "new", "to": "screening"})
                             for j in range(batch)], actor="bench")
        fill = time.perf_counter() - start
        one = []
        for i in range(200):
            t = time.perf_counter()
            log.record("screening.rating", [f"doc{i}"], {"from": None, "to": 3}, actor="bench")
            one.append(time.perf_counter() - t)
        bulk = []
        for k in range(20):
            t = time.perf_counter()
            log.record_many([("shortlist.add", [f"doc{k * 100 + j}"], {"shortlist_id": 1}) for j in range(100)],
                            actor="bench")
            bulk.append(time.perf_counter() - t)
        t = time.perf_counter()
        report = log.verify()
        verify = time.perf_counter() - t
        ref = log.known_refs(["doc7"])
        t = time.perf_counter()
        found = log.entries(action="screening.", refs=ref)
        listing = time.perf_counter() - t
        size = sum(p.stat().st_size for p in Path(tmp).iterdir()) / 1e6
        log.close()
    n = report["entries"]
    print(f"audit trail, {n:,} entries ({size:.1f} MB on disk), filled in {fill:.1f} s")
    print(f"{'operation':<38} {'median ms':>8} / {'max ms':>8}")
    print(f"{'append one entry':<38} {_ms(one)}")
    print(f"{'append 100 entries (bulk change)':<38} {_ms(bulk)}")
    print(f"{'verify the whole chain':<38} {verify * 1000:8.1f}   ({'ok' if report['ok'] else 'BROKEN'})")
    print(f"{'list one person, action prefix':<38} {listing * 1000:8.1f}   ({len(found)} entries)")


if __name__ == "__main__":
    main()
