"""What a front end tells the session manager, given whole when it is built: `SessionManager(store,
hooks=Hooks(...))`; nothing is assigned onto the manager afterwards.

A front end shapes play in two ways: the first deadline of each new position (from its server's settings and
its people's time away) and each person's window setting (bot/sessions/automatic.py). Both come from the
front end's own records, which may need the database, so the manager never asks for them while it holds a
match's lock: before taking it, it awaits `Hooks.policy(info)` once, which gathers what it needs and returns
a `Policy`, plain data and pure functions over it; under the lock the manager only calls those.

The defaults are the terminal's and the tests': no deadline beyond `turn_seconds`, everyone with the
default window setting, one process on the database.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

from bot.sessions.types import DEFAULT_WINDOWS, MatchInfo, UserId
from bot.store.base import Shards

CLAIM_LEASE = 90.0  # seconds a claim holds: a process that dies holding one leaves its work for this long


@dataclass(frozen=True)
class Policy:
    """The front end's choices for one match, read before its lock: pure, so the manager may use them while
    it holds the lock."""

    # The first deadline of a new position, written in the same transaction as the change; None (the
    # function, not its answer) keeps the manager's turn_seconds.
    deadline_for: Callable[[MatchInfo], float | None] | None = None
    windows: Mapping[UserId, str] = field(default_factory=dict)  # people's window settings (ASK, AUTO, ALL)
    default_window: str = DEFAULT_WINDOWS  # the setting of anyone not in `windows`

    def window_setting(self, user: UserId | None) -> str:
        """This person's window setting (the default for nobody, or anyone the front end did not name)."""
        return self.default_window if user is None else self.windows.get(user, self.default_window)


PLAIN = Policy()


async def plain(info: MatchInfo) -> Policy:
    """No front-end choices: the default window setting for everyone, turn_seconds for deadlines."""
    return PLAIN


def always(policy: Policy) -> Callable[[MatchInfo], Awaitable[Policy]]:
    """A policy hook that gives every match the same policy (a terminal's window setting, a test's)."""

    async def same(info: MatchInfo) -> Policy:
        return policy

    return same


@dataclass(frozen=True)
class Hooks:
    """How a front end shapes the session manager (see the module doc)."""

    # The policy of a match, gathered from the front end's records; awaited before the match's lock.
    policy: Callable[[MatchInfo], Awaitable[Policy]] = plain
    # Several bot processes on one database: the shards whose guilds' AI turns this process resumes (None:
    # all), and its name in the store's claims (None: the only process, so no claims are taken).
    shards: Shards | None = None
    owner: str | None = None
    claim_lease: float = CLAIM_LEASE


NO_HOOKS = Hooks()  # a terminal's, a test's: the defaults
