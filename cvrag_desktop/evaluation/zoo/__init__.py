"""The layout zoo (issue 36): factory content rendered through real third-party template engines.

Every document is a factory draft (every value known exactly) printed by a *family*: a JSON Resume
theme from npm through headless Chromium, a Word document in one structural style kept as DOCX and
printed by LibreOffice, or one of the factory's own reportlab layouts. Each document comes with its
field truth (the shape ``cvrag generate`` writes) and line-level roles from aligning the known values
to the lines the product's own reader finds. Build time only (``make zoo``): neither the product nor
the test suite needs Chromium, LibreOffice or npm. See docs/zoo.md.
"""
