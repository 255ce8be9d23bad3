"""Layouts that copy a tool's export: LinkedIn "Save to PDF" (two designs) and an online résumé
builder.
"""
