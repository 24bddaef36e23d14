"""Asynchronous play: a reminder after the server's delay and the turn-timeout policy (skip, AI, forfeit).

Deadlines live in the database (`matches.deadline`), so this survives restarts. When people are to act the
deadline is set to "last change + the earlier of reminder and timeout". A background loop asks
`sessions.overdue()`: if the timeout has passed it applies the policy, otherwise it sends the reminder and
moves the deadline to the timeout. The clock comes from the session manager; `tick(now)` runs one check.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from bot.discord.common import GuildSettings, seat_names
from bot.sessions import MatchInfo, SessionError
from bot.store import ACTIVE, MatchSummary

if TYPE_CHECKING:
    from bot.discord.app import AgoraBot

log = logging.getLogger("bot.discord.timers")


def _first_deadline(since: float, settings: GuildSettings) -> float | None:
    spans = [s for s in (settings.reminder, settings.timeout) if s]
    return since + min(spans) if spans else None


class Timers:
    """Turn reminders and timeouts for every guild, driven by deadlines stored with the match."""

    def __init__(self, bot: AgoraBot, interval: float = 30.0) -> None:
        self.bot = bot
        self.interval = interval
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the background loop (interval <= 0: never; tests call tick themselves)."""
        if self.interval > 0 and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._loop(), name="agora-timers")

    async def stop(self) -> None:
        """Stop the loop."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _loop(self) -> None:
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("timer check failed")
            await asyncio.sleep(self.interval)

    async def turn_changed(self, info: MatchInfo) -> None:
        """Set the next deadline after a change (called under the match lock by the board subscriber)."""
        if info.status != ACTIVE or not info.users_to_act or info.guild_id is None:
            return  # every commit clears the deadline; a stale one is dropped by tick()
        deadline = _first_deadline(info.updated_at, await self.bot.settings(info.guild_id))
        if deadline is not None:
            await self.bot.sessions.store.set_deadline(info.id, deadline)

    async def tick(self, now: float | None = None) -> int:
        """Handle every overdue match once; the number handled."""
        sessions = self.bot.sessions
        now = sessions.clock() if now is None else now
        due = await sessions.overdue(now)
        for summary in due:
            try:
                await self._handle(summary, now)
            except Exception:
                log.exception("timer of match %s failed", summary.id)
                await sessions.store.set_deadline(summary.id, None)
        return len(due)

    async def _handle(self, s: MatchSummary, now: float) -> None:
        settings = await self.bot.settings(s.guild_id) if s.guild_id is not None else GuildSettings()
        info = await self.bot.sessions.get(s.id)
        store = self.bot.sessions.store
        if info.status != ACTIVE or not info.users_to_act:
            await store.set_deadline(s.id, None)
            return
        waited = now - info.updated_at
        if settings.timeout and waited >= settings.timeout:
            await self._timeout(info, settings.policy)
            return
        if settings.reminder and waited >= settings.reminder:
            await self._remind(info, waited)
        later = info.updated_at + settings.timeout if settings.timeout else None
        await store.set_deadline(s.id, later if later and later > now else None)

    async def _remind(self, info: MatchInfo, waited: float) -> None:
        channel = await self.bot.channel(info.channel_id) if info.channel_id else None
        if channel is None:
            return
        mentions = " ".join(f"<@{u}>" for u in info.users_to_act)
        hours = waited / 3600
        span = (
            f"{hours:.0f} hour{'s' if round(hours) != 1 else ''}" if hours >= 1 else f"{waited / 60:.0f} min"
        )
        await channel.send(
            f"⏰ {mentions} — reminder: {info.title} game #{info.id} has been waiting for you for {span}. "
            "Press **My hand & moves** on the latest board."
        )

    async def _timeout(self, info: MatchInfo, policy: str) -> None:
        sessions = self.bot.sessions
        names = seat_names(info)
        said = []
        for seat in info.to_act:
            user = info.seats[seat].user_id
            if user is None or info.seats[seat].is_ai:
                continue
            try:
                if policy == "skip":
                    moves = await sessions.moves_for(info.id, user)
                    pick = next((m for m in moves if m.key == "end_turn"), moves[0] if moves else None)
                    if pick is not None:
                        await sessions.submit(info.id, user, pick.key, None)
                    said.append(f"<@{user}> ran out of time; the turn was skipped for them.")
                elif policy == "forfeit":
                    await sessions.forfeit(info.id, user, "out of time")
                    said.append(f"<@{user}> ran out of time and forfeits; the game ends here.")
                    break
                else:
                    await sessions.leave(info.id, user)
                    said.append(f"<@{user}> ran out of time; an AI plays {names[seat]}'s seat from now on.")
            except SessionError as e:
                log.warning("match %s: timeout policy %s for seat %s refused: %s", info.id, policy, seat, e)
        channel = await self.bot.channel(info.channel_id) if info.channel_id else None
        if channel is not None and said:
            await channel.send("⌛ " + "\n".join(said))
