"""Search index: Qdrant (embedded Qdrant Edge shard, or a server), offline embeddings, filters, strategies.

Derived from the catalog and rebuildable at any time. The facade is
:class:`cvrag_desktop.index.service.SearchService`.
"""
