"""The application layer: one typed operation module per thing a recruiter acts on.

:class:`~cvrag_desktop.app.assembly.App` puts the application together once (paths,
settings, catalog, the lazily opened index and assistant) and exposes the operation
modules: ``library``, ``people``, ``screening``, ``blind``, ``search``, ``chat``,
``jobs``, ``compliance`` and ``health``. The GUI, the CLI and the self-test call only
this package (plus ``domain`` and ``errors``); ``tests/unit/test_layering.py`` enforces it.
"""
