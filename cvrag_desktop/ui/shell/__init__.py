"""The window around the panes: the application object, the main window, the status bar, theme, keyboard, fit to the screen, the worker tasks and how errors are shown."""
