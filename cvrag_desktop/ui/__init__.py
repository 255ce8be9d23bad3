"""The PySide6 desktop front end; the only package allowed to import Qt."""
