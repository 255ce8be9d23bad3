"""Dialogs opened from the menus: settings, audit trail, retention, rank explanations, catalog repair, the self-test window, and where to save an export."""
