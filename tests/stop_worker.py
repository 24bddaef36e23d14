"""A subprocess for tests/ops/test_stop_backup.py: `agora run` itself (bot/__main__.py), its REST calls and
gateway pointed at a fake Discord that runs in the test process.

    python tests/stop_worker.py API_BASE GATEWAY_URL run --db FILE     (DISCORD_TOKEN in the environment)

Everything after the two URLs is the command line of `python -m bot`; SIGTERM and SIGINT reach it as they
reach the bot in a container.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.__main__ import main
from tests.discord_worker import point_at

if __name__ == "__main__":
    point_at(sys.argv[1], sys.argv[2])
    sys.exit(main(sys.argv[3:]))
