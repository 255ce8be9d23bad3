"""CV RAG Desktop: offline CV parsing, search and cited answers for recruiters."""

__version__ = "0.1.0"
