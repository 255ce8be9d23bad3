"""The vocabularies: what a word of a CV or a question means, read from ``resources/``.

Skills and their aliases, spoken languages, degree levels, places, credentials and the
lexicon of headings, months and title words; each loaded once per process.
"""
