"""``python -m damiera_cluster``: the command line (:mod:`damiera_cluster.cli`)."""

import sys

from damiera_cluster.cli import main

sys.exit(main())
