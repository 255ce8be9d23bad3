"""One filter language for the embedded shard (Qdrant Edge) and a Qdrant server.

:func:`cvrag_desktop.index.filters.build_filter` describes a search filter once, as a
small neutral tree (:class:`Where` of :class:`Match` / :class:`Between` /
:class:`Within`), and the two renderers here turn that same tree into
``qdrant_edge`` classes (:func:`to_edge`) or ``qdrant_client.models`` (:func:`to_client`).
The two libraries have the same filter model under different class names
(``RangeFloat`` vs ``Range``, ``NestedCondition(key, filter)`` vs
``NestedCondition(nested=Nested(...))``), so rendering is a one-to-one mapping and both
engines evaluate exactly the same conditions on exactly the same payload.

Both libraries are imported lazily: ``qdrant_client`` costs ~1 s to import and is only
needed in server mode.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Match:
    """``key`` (a keyword field, or an array of them) holds ``value``."""

    key: str
    value: str


@dataclass(frozen=True)
class AnyOf:
    """``key`` holds one of ``values`` (an empty list matches nothing)."""

    key: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class Between:
    """The integer field ``key`` lies in ``[gte, lte]`` (either bound may be open)."""

    key: str
    gte: int | None
    lte: int | None


@dataclass(frozen=True)
class Within:
    """One element of the object array ``key`` satisfies every condition (Qdrant nested filter)."""

    key: str
    must: tuple[Match, ...]


Condition = Match | AnyOf | Between | Within


@dataclass(frozen=True)
class Where:
    """Every condition holds (AND)."""

    must: tuple[Condition, ...]


def _edge_cond(c: Condition, qe: Any) -> Any:
    if isinstance(c, Match):
        return qe.FieldCondition(c.key, match=qe.MatchValue(c.value))
    if isinstance(c, AnyOf):
        return qe.FieldCondition(c.key, match=qe.MatchAny(list(c.values)))
    if isinstance(c, Between):
        return qe.FieldCondition(c.key, range=qe.RangeFloat(
            gte=None if c.gte is None else float(c.gte), lte=None if c.lte is None else float(c.lte)))
    return qe.NestedCondition(c.key, qe.Filter(must=[_edge_cond(m, qe) for m in c.must]))


def to_edge(where: Where | None) -> Any:
    """The ``qdrant_edge.Filter`` for a neutral filter (None stays None)."""
    if where is None:
        return None
    import qdrant_edge as qe

    return qe.Filter(must=[_edge_cond(c, qe) for c in where.must])


def _client_cond(c: Condition, m: Any) -> Any:
    if isinstance(c, Match):
        return m.FieldCondition(key=c.key, match=m.MatchValue(value=c.value))
    if isinstance(c, AnyOf):
        return m.FieldCondition(key=c.key, match=m.MatchAny(any=list(c.values)))
    if isinstance(c, Between):
        return m.FieldCondition(key=c.key, range=m.Range(gte=c.gte, lte=c.lte))
    return m.NestedCondition(nested=m.Nested(key=c.key, filter=m.Filter(must=[_client_cond(x, m) for x in c.must])))


def to_client(where: Where | None) -> Any:
    """The ``qdrant_client.models.Filter`` for a neutral filter (None stays None)."""
    if where is None:
        return None
    from qdrant_client import models

    return models.Filter(must=[_client_cond(c, models) for c in where.must])
