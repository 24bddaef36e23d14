"""The fake gateway: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME, dispatches.

Frames are always JSON text frames: discord.py asks for `compress=zlib-stream` in the URL query, but it only
inflates binary frames, so plain text frames need no zlib. Every dispatch a session was sent is kept, so a
client that RESUMEs after a dropped connection gets what it missed, as from Discord.

Shards, as on Discord: a session that IDENTIFYs with `shard: [shard_id, num_shards]` is told (READY,
GUILD_CREATE) only of the guilds of its shard, `(guild_id >> 22) % num_shards`, and is sent only their
events (direct messages: shard 0). A shard id not below num_shards is closed with 4010 (Invalid shard).
The latest session of each shard is the one dispatched to (`current` is the latest of all); a session
without `shard` gets every guild's events, as before.
"""

from __future__ import annotations

import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import FakeDiscord

JSON = dict[str, Any]
log = logging.getLogger("fakediscord.gateway")

HEARTBEAT_INTERVAL_MS = 41250
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_MESSAGE_CONTENT = 1 << 15
INVALID_SHARD = 4010


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard a guild's events go to among `count` (direct messages, no guild: shard 0)."""
    return ((guild_id or 0) >> 22) % count


def guild_of_event(event: str, data: JSON) -> int | None:
    """The guild a dispatch is about (None: a direct message, or no guild)."""
    raw = data.get("guild_id")
    if raw is None and event.startswith("GUILD_") and "id" in data:
        raw = data["id"]  # GUILD_CREATE / GUILD_UPDATE carry the guild itself
    return int(raw) if raw is not None else None


@dataclass
class GatewaySession:
    """One identified gateway session; it outlives its websocket until closed cleanly or invalidated."""

    id: str
    intents: int
    seq: int = 0
    sent: list[JSON] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None
    resumes: int = 0
    closed: bool = False
    awaiting_resume: bool = False
    shard: tuple[int, int] | None = None  # (shard_id, num_shards) from IDENTIFY; None: unsharded

    def owns(self, guild_id: int | None) -> bool:
        """Whether this session is sent the events of that guild."""
        return self.shard is None or shard_of(guild_id, self.shard[1]) == self.shard[0]

    @property
    def reachable(self) -> bool:
        """Whether a dispatch will reach its client: connected, or dropped by the fake and due to RESUME."""
        live = self.ws is not None and not self.ws.closed
        return not self.closed and (live or self.awaiting_resume)

    def frame(self, event: str, data: JSON) -> JSON:
        """Number a dispatch frame and keep it for RESUME."""
        self.seq += 1
        frame = {"op": 0, "t": event, "s": self.seq, "d": data}
        self.sent.append(frame)
        return frame


class Gateway:
    """The websocket endpoint and the sessions behind it."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sessions: dict[str, GatewaySession] = {}
        self.current: GatewaySession | None = None  # the latest session to IDENTIFY
        self.shards: dict[tuple[int, int] | None, GatewaySession] = {}  # the latest of each shard
        self.identifies = 0
        self.heartbeats = 0
        self.heartbeat_interval_ms = HEARTBEAT_INTERVAL_MS  # what HELLO asks of the next connections
        self.silent: Any = None  # a websocket gone silent (a zombie connection): nothing is sent to it

    @property
    def connected(self) -> bool:
        """Whether a session has a live websocket."""
        return self.current is not None and self.current.ws is not None and not self.current.ws.closed

    @property
    def reachable(self) -> bool:
        """Whether a dispatch will reach a client: connected, or dropped by the fake and due to RESUME (of
        any shard)."""
        return any(s.reachable for s in self.shards.values())

    def reachable_for(self, guild_id: int | None) -> bool:
        """Whether the events of that guild (None: direct messages) will reach a client."""
        return any(s.reachable and s.owns(guild_id) for s in self.shards.values())

    def sessions_for(self, guild_id: int | None) -> list[GatewaySession]:
        """The sessions a guild's events go to: the latest of each shard that owns it."""
        return [s for s in self.shards.values() if s.owns(guild_id)]

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """Serve one websocket connection (query parameters like compress=zlib-stream are ignored)."""
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        await self._send(ws, {"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        session: GatewaySession | None = None
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                packet = json.loads(msg.data)
                session = await self._on_packet(ws, packet, session)
        finally:
            log.debug("gateway websocket closed with %s", ws.close_code)
            if session is not None and session.ws is ws:
                session.ws = None
                if ws.close_code in (1000, 1001):
                    session.closed = True
            self.fake.notify()
        return ws

    async def _on_packet(
        self, ws: web.WebSocketResponse, packet: JSON, session: GatewaySession | None
    ) -> GatewaySession | None:
        op, data = packet.get("op"), packet.get("d")
        if op == 1:
            self.heartbeats += 1
            await self._send(ws, {"op": 11})
        elif op == 2:
            if data.get("token") != self.fake.token:
                await ws.close(code=4004, message=b"Authentication failed.")
                return session
            session = await self._identify(ws, data)
        elif op == 6:
            session = await self._resume(ws, data)
        elif op == 8:
            await self._request_members(ws, session, data)
        elif op in (3, 4):
            pass  # presence and voice state updates: nothing to do
        else:
            log.warning("fake gateway: unhandled op %s", op)
            self.fake.unimplemented.append(f"GATEWAY op {op}")
        return session

    async def _identify(self, ws: web.WebSocketResponse, data: JSON) -> GatewaySession | None:
        shard = data.get("shard")
        if shard is not None:
            shard_id, count = int(shard[0]), int(shard[1])
            if count < 1 or not 0 <= shard_id < count:
                await ws.close(code=INVALID_SHARD, message=b"Invalid shard.")
                return None
            shard = (shard_id, count)
        self.identifies += 1
        session = GatewaySession(id=secrets.token_hex(16), intents=int(data.get("intents", 0)), shard=shard)
        session.ws = ws
        self.sessions[session.id] = session
        self.current = self.shards[shard] = session
        fake = self.fake
        guilds = [g for g in fake.guilds.values() if session.owns(g.id)]
        ready = {
            "v": 10,
            "user": fake.bot_user.to_json() | {"verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": fake.gateway_url,
            "application": {"id": str(fake.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "guild_join_requests": [],
            "_trace": ["fakediscord"],
        }
        if shard is not None:
            ready["shard"] = list(shard)
        await self._send(ws, session.frame("READY", ready))
        for guild in guilds:
            await self._send(ws, session.frame("GUILD_CREATE", guild.to_json(fake.message_count)))
        fake.notify()
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: JSON) -> GatewaySession | None:
        session = self.sessions.get(data.get("session_id", ""))
        if session is None or session.closed or data.get("token") != self.fake.token:
            await self._send(ws, {"op": 9, "d": False})
            return None
        session.ws = ws
        session.resumes += 1
        session.awaiting_resume = False
        last = data.get("seq") or 0
        for frame in [f for f in session.sent if f["s"] > last]:
            await self._send(ws, frame)
        await self._send(ws, session.frame("RESUMED", {"_trace": ["fakediscord"]}))
        self.fake.notify()
        return session

    async def _request_members(
        self, ws: web.WebSocketResponse, session: GatewaySession | None, data: JSON
    ) -> None:
        if session is None:
            return
        guild = self.fake.guilds[int(data["guild_id"])]
        chunk = {
            "guild_id": str(guild.id),
            "members": [m.to_json() for m in guild.members.values()],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self._send(ws, session.frame("GUILD_MEMBERS_CHUNK", chunk))

    async def dispatch(self, event: str, data: JSON, *, intent: int = 0) -> None:
        """Send a dispatch to the session of the shard its guild belongs to (the current one, unsharded);
        kept for RESUME if its websocket is down."""
        for session in self.sessions_for(guild_of_event(event, data)):
            await self._dispatch_to(session, event, data, intent)

    async def broadcast(self, event: str, data: JSON) -> int:
        """Send a dispatch to the latest session of every shard, whichever guild it is about (a test of what
        the bot does with an event delivered to more than one process); how many were sent it."""
        sent = 0
        for session in list(self.shards.values()):
            sent += await self._dispatch_to(session, event, data, 0)
        return sent

    async def _dispatch_to(self, session: GatewaySession, event: str, data: JSON, intent: int) -> bool:
        """Send one dispatch to one session (kept for RESUME); whether the session takes it."""
        if session.closed or (intent and not session.intents & intent):
            return False
        frame = session.frame(event, data)
        if session.ws is not None and not session.ws.closed:
            await self._send(session.ws, frame)
        return True

    async def drop(self, code: int = 4000) -> None:
        """Close the current websocket as a network failure would; the client should RESUME."""
        session = self.current
        if session is None or session.ws is None:
            return
        ws, session.ws = session.ws, None
        session.awaiting_resume = True
        await ws.close(code=code)

    async def send_reconnect(self) -> None:
        """Send op 7 RECONNECT to the current websocket (the client reconnects and RESUMEs)."""
        session = self.current
        if session is not None and session.ws is not None:
            ws, session.ws = session.ws, None
            session.awaiting_resume = True
            await self._send(ws, {"op": 7, "d": None})

    async def invalidate(self) -> None:
        """End the current session and drop its websocket: the client's RESUME is refused (op 9, false), so it
        IDENTIFYs anew; what was dispatched in between is lost, as on Discord."""
        session = self.current
        if session is None or session.ws is None:
            return
        session.closed = True
        ws, session.ws = session.ws, None
        await ws.close(code=4000)

    def go_silent(self) -> None:
        """The current websocket stays open but receives nothing, heartbeat ACKs included (a zombie
        connection); its dispatches are kept for RESUME. The client should notice, reconnect and RESUME."""
        if self.current is not None:
            self.silent = self.current.ws

    async def close_all(self) -> None:
        """Close every websocket (server shutdown)."""
        for session in self.sessions.values():
            if session.ws is not None:
                ws, session.ws = session.ws, None
                await ws.close(code=1001)

    async def _send(self, ws: web.WebSocketResponse, packet: JSON) -> None:
        if not ws.closed and ws is not self.silent:
            await ws.send_str(json.dumps(packet))
