"""The audit trail's hash chain: the bytes an entry's hash covers, and where a chain breaks.

``hash = sha256(previous hash + canonical JSON of the entry)`` (keys sorted, no spaces,
UTF-8). :func:`chain_break` walks the stored entries in sequence and names the first broken
link: a changed entry fails its hash, a deleted or reordered one breaks ``prev`` or the
sequence, a cut-off tail no longer reaches the head recorded beside the chain, and entries
gone from the start must have been removed by a prune the chain itself records. Qt-free.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence

GENESIS = "0" * 64


def canonical(seq: int, at: str, actor: str, action: str, person: str | None, details: Mapping) -> str:
    """The entry's canonical JSON: the bytes its hash covers."""
    body = {"seq": seq, "at": at, "actor": actor, "action": action, "person": person, "details": details}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def link_hash(prev: str, body: str) -> str:
    """``sha256(previous hash + canonical JSON)`` as hex."""
    return hashlib.sha256((prev + body).encode("utf-8")).hexdigest()


def chain_break(rows: Sequence[Sequence], anchor_seq: int, anchor_hash: str, head: str | None
                ) -> tuple[tuple[int, str] | None, str]:
    """``((first broken seq, reason) | None, the head reached as "<seq>:<hash>")``.

    ``rows``: ``(seq, at, actor, action, person, details JSON, prev, hash)`` ordered by seq;
    ``anchor_seq``/``anchor_hash``: where the kept chain starts (after a prune; 0 and
    :data:`GENESIS` before any); ``head``: the head recorded inside the log at the last append."""
    prev, expected = anchor_hash, anchor_seq + 1
    for r in rows:
        seq, at, actor, action, person, details, stored_prev, stored_hash = tuple(r)
        if seq != expected:
            return (expected, f"entry {expected} is missing (next found: {seq})"), ""
        if stored_prev != prev:
            return (seq, "does not follow the entry before it (deleted, inserted or reordered)"), ""
        try:
            body = canonical(seq, at, actor, action, person, json.loads(details))
        except ValueError:
            return (seq, "its details are not valid JSON (changed)"), ""
        if link_hash(prev, body) != stored_hash:
            return (seq, "its content does not match its hash (changed)"), ""
        prev, expected = stored_hash, seq + 1
    reached = f"{expected - 1}:{prev}"
    if head is not None and head != reached:
        head_seq = int(head.split(":")[0])
        return (expected if head_seq >= expected else head_seq,
                f"the chain ends at entry {expected - 1} but entry {head_seq} was written (cut off)"), reached
    if anchor_seq:  # entries 1..anchor_seq are gone: the newest prune entry must say so, with that hash
        prunes = [json.loads(r[5]) for r in rows if r[3] == "audit.prune"]
        said = prunes[-1] if prunes else None
        if said is None or ("up_to_seq" in said and (said["up_to_seq"], said.get("up_to_hash"))
                            != (anchor_seq, anchor_hash)):  # (a prune written before these fields: taken as is)
            return (anchor_seq, f"entries up to {anchor_seq} are gone but no prune in the trail removed them "
                                "(deleted)"), reached
    return None, reached
