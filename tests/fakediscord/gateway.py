"""The fake gateway: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME, dispatches.

Frames are always JSON text frames: discord.py asks for `compress=zlib-stream` in the URL query, but it only
inflates binary frames, so plain text frames need no zlib. Every dispatch a session was sent is kept, so a
client that RESUMEs after a dropped connection gets what it missed, as from Discord.
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
        self.current: GatewaySession | None = None
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
        """Whether a dispatch will reach a client: connected, or dropped by the fake and due to RESUME."""
        current = self.current
        return current is not None and not current.closed and (self.connected or current.awaiting_resume)

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

    async def _identify(self, ws: web.WebSocketResponse, data: JSON) -> GatewaySession:
        self.identifies += 1
        session = GatewaySession(id=secrets.token_hex(16), intents=int(data.get("intents", 0)))
        session.ws = ws
        self.sessions[session.id] = session
        self.current = session
        fake = self.fake
        ready = {
            "v": 10,
            "user": fake.bot_user.to_json() | {"verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(g), "unavailable": True} for g in fake.guilds],
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
        if "shard" in data:
            ready["shard"] = data["shard"]
        await self._send(ws, session.frame("READY", ready))
        for guild in fake.guilds.values():
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
        """Send a dispatch to the current session; kept for RESUME if its websocket is down."""
        session = self.current
        if session is None or session.closed:
            return
        if intent and not session.intents & intent:
            return
        frame = session.frame(event, data)
        if session.ws is not None and not session.ws.closed:
            await self._send(session.ws, frame)

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
