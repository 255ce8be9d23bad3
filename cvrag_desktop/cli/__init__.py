"""``cvrag``: the headless command line, one module per group of commands.

``main`` (the ``cvrag`` entry point, ``cvrag_desktop.cli.entry:main``) and ``build_parser`` live in
:mod:`cvrag_desktop.cli.entry`; ``python -m cvrag_desktop.cli`` runs :mod:`cvrag_desktop.cli.__main__`.
Every command is a thin call into the application layer (:mod:`cvrag_desktop.app`). Importing the
package loads nothing.
"""
