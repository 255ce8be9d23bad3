"""Qt item models: they hold ids and fetch rows through ``services``."""
