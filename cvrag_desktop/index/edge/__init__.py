"""The embedded search index: a Qdrant Edge shard under ``<index_dir>/shard``, its folder lock, the
files kept beside it and the clean-close stamp.
"""
