"""The catalog's storage room: the SQLite schema and row access behind ``Catalog``, its health and
backups, read-only and disk-space guards, library paths relative to the data home, and the rebuild
from the library.
"""
