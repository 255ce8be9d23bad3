"""Blind screening: what a reviewer sees of a person when names, contacts and photos are hidden, line
by line and page by page.
"""
