"""Fields: names, contact, dated entries, employers, titles, education, skills, languages, places, and how far each value can be trusted.

The third stage of the ingestion cascade (read -> layout -> fields); normalize.py assembles them into a NormalizedCV."""
