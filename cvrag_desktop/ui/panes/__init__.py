"""The four panes of the main window: Generate, Import, Candidates, Chat."""
