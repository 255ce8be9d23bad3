"""The vocabulary room at the bottom of the core: text comparison, vocabularies, screening rules.

Comparison keys (:mod:`.keys`), folded forms (:mod:`.fold`), stems (:mod:`.stems`), person
names (:mod:`.names`) and employer cores (:mod:`.companies`) decide when two strings are
"the same"; :mod:`.vocab` holds what a word means (skills, languages, degrees, places,
credentials, the lexicon) and :mod:`.rules` one function per screening rule. Catalog,
ingestion, index and assistant all import from here, so two parts of the app never
disagree. This package imports nothing else from ``cvrag_desktop`` (a test enforces it).
"""
