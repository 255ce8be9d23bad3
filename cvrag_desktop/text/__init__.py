"""Text and name normalisation: the one room at the bottom of the core.

Comparison keys (:mod:`.keys`: NFKD, diacritics stripped, casefolded, whitespace folded;
free-text keys without dots and punctuation) and employer cores (:mod:`.companies`: a
company key without its legal form). Catalog, ingestion, index and assistant all import
from here, so two parts of the app never disagree on when two strings are "the same".
This package imports nothing else from ``cvrag_desktop`` (a test enforces it).
"""
