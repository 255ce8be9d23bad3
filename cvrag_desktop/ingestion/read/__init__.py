"""Reading a file into positioned lines: PDF (PyMuPDF, pypdf fallback), Word, OCR of image-only pages, the guards and the sandboxed workers that bound a hostile file, and the plain-words reasons for a refusal.

The first stage of the ingestion cascade (read -> layout -> fields)."""
