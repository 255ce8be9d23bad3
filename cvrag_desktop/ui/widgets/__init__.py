"""Reusable widgets: facets, candidate detail, PDF preview, shortlist bar."""
