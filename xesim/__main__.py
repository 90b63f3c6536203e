"""``python -m xesim``: the ``xesim`` command."""

import sys

from xesim.cli import main

sys.exit(main())
