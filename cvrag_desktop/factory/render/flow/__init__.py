"""Layouts printed as one flow down the page: classic, table, localized, moderncv, Europass, academic,
a date column, one-line roles, a Word table.
"""
