"""Layout: positioned lines put in reading order (columns, sidebars, rows), cut into canonical sections, and each line given its kind and its role (the trained line-role model).

The second stage of the ingestion cascade (read -> layout -> fields)."""
