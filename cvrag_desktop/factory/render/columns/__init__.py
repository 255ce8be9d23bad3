"""Two-column layouts: a sidebar or second column beside the main one (``sidebar``, ``gutter``,
``designer``, ``labelled``, ``timeline``).
"""
