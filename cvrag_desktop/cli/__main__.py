"""``python -m cvrag_desktop.cli``: the same as the ``cvrag`` command."""

import sys

from cvrag_desktop.cli.entry import main

sys.exit(main())
