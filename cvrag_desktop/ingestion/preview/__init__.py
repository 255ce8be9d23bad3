"""Previews of stored documents: what the viewer shows for a file and where a cited line sits on it (a Word file typeset once into a PDF)."""
