"""damiera on a Ray cluster: self-play, matches, endgame databases and deep perft spread over
workers, each task a call of the damiera binary (docs/cluster.md).

Every job runs on this machine when no cluster address is given (``ray.init()`` with as many
workers as asked) and on a running cluster with ``--address``. Its output is the output the
local damiera command writes: the same self-play file byte for byte, the same match report
(computed by ``damiera match --report-only``), the same database files, the same perft count.
"""

__version__ = "0.1.0"
