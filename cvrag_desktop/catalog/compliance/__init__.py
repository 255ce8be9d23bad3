"""Compliance in the core: the hash-chained audit trail, retention clocks and purge, subject-access
export, and forget with everything it must reach.
"""
