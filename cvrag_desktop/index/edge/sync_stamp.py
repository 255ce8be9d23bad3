"""A record that the local index matched the catalog at its last clean close, so a start can skip reconcile.

Reconciling opens the shard and reads every point's ids (~0.5 s at 1,000 CVs), which every
``cvrag search`` / ``cvrag ask`` process paid before answering, and the assistant's analytics
answers never read the shard at all. A session that reconciled (or found the stamp valid) and
then wrote nothing to the index leaves ``in_sync.json`` beside the shard at close: a digest of the
catalog's ``(chunk_id, candidate_id)`` pairs — exactly what reconcile compares —, of the shard's
seal and its write time (rewritten by every clean close, absent while a process has the shard open or after a
crash) and of the embedding models' fingerprint. The next start trusts the index only when all
three are unchanged; anything else (an import, a delete, a crash, a rebuild, new models, another
process holding the shard) reconciles as before.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from cvrag_desktop.catalog.queries import chunk_owners
from cvrag_desktop.index.edge.files import SEAL_NAME  # written by write_seal at a clean close

STAMP_NAME = "in_sync.json"


def pairs_digest(pairs: dict[str, str]) -> str:
    """Digest of ``chunk_id -> candidate_id`` pairs, in chunk id order."""
    h = hashlib.blake2b(digest_size=16)
    for chunk_id in sorted(pairs):
        h.update(f"{chunk_id}\x00{pairs[chunk_id]}\x01".encode())
    return h.hexdigest()


def catalog_digest(catalog) -> str:
    """Digest of the catalog's chunk ids and their candidates (what reconcile compares with the index)."""
    return pairs_digest(chunk_owners(catalog))


def _seal_digest(index_dir: Path) -> str | None:
    """The seal's bytes and write time: any later clean close by anyone (a new seal) changes it."""
    try:
        seal = index_dir / SEAL_NAME
        data = seal.read_bytes() + str(seal.stat().st_mtime_ns).encode()
    except OSError:
        return None
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def stamp_matches(index_dir: Path, catalog_key: str, model: str) -> bool:
    """True when the index was left in sync with this catalog, by a clean close, for these models."""
    seal = _seal_digest(index_dir)
    if seal is None:
        return False
    try:
        data = json.loads((index_dir / STAMP_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return data == {"catalog": catalog_key, "seal": seal, "model": model}


def write_stamp(index_dir: Path, catalog_key: str, model: str) -> None:
    """Record that the closed index matches ``catalog_key`` (no-op without a seal, e.g. a read-only copy)."""
    seal = _seal_digest(index_dir)
    if seal is None:
        return
    tmp = index_dir / (STAMP_NAME + ".tmp")
    try:
        tmp.write_text(json.dumps({"catalog": catalog_key, "seal": seal, "model": model}), encoding="utf-8")
        os.replace(tmp, index_dir / STAMP_NAME)
    except OSError:  # no stamp: the next start just reconciles
        tmp.unlink(missing_ok=True)


def drop_stamp(index_dir: Path) -> None:
    """Forget the stamp (the index is about to change)."""
    (index_dir / STAMP_NAME).unlink(missing_ok=True)
