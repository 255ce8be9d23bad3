"""Qt item models: they hold ids and fetch rows through the application layer."""
