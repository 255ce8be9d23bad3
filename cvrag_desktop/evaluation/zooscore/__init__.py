"""Scoring extraction on the layout zoo (``cvrag eval --zoo``): per family, per field, held-out bench apart."""
