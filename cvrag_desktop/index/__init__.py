"""Search index: Qdrant (embedded Qdrant Edge shard, or a server), offline embeddings, filters, strategies.

Derived from the catalog and rebuildable at any time. The facade is
:class:`cvrag_desktop.index.service.SearchService`.
"""

STRATEGIES = ("hybrid", "metadata", "filtered")
"""The search strategies (here, not in ``service``: the CLI's parser names them without loading the index)."""
