"""End-to-end latency through the fake Discord: INTERACTION_CREATE dispatched -> the bot's callback arriving.

    .venv/bin/python bench/e2e_noop.py [presses] [runs]

measures a no-op discord.py bot that answers a persistent button with an ephemeral "ok" and prints p50/p90/p99
(median over runs). The pieces are reusable, so a later bench can put the real bot beside the baseline:

    samples = await measure_presses(fake, user, message, "My hand", presses=300)
    rows = [summarize("no-op discord.py", noop_runs), summarize("agora", agora_runs)]
    print(format_table(rows))
"""

from __future__ import annotations

import asyncio
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

import discord

ROOT = str(Path(__file__).resolve().parents[1])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, make_client_kwargs, running_bot  # noqa: E402

WARMUP = 20


class NoopView(discord.ui.View):
    """One persistent button answered with an ephemeral 'ok'."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Press", custom_id="noop:press")
    async def press(self, interaction: discord.Interaction, button: discord.ui.Button[NoopView]) -> None:
        """Answer at once."""
        await interaction.response.send_message("ok", ephemeral=True)


class NoopBot(discord.Client):
    """The baseline: the real discord.py client doing nothing but answering the button."""

    def __init__(self) -> None:
        super().__init__(**make_client_kwargs())

    async def setup_hook(self) -> None:
        """Register the persistent view."""
        self.add_view(NoopView())


@dataclass(frozen=True)
class LatencyRow:
    """Percentiles in milliseconds, each the median over runs."""

    name: str
    presses: int
    runs: int
    p50: float
    p90: float
    p99: float
    mean: float


def percentile(samples: list[float], q: float) -> float:
    """The q-th percentile (0..100) by nearest rank."""
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))
    return ordered[index]


async def measure_presses(
    fake: FakeDiscord, user: FakeUser, message: FakeMessage, label: str, presses: int, warmup: int = WARMUP
) -> list[float]:
    """Press a button `presses` times, one after another; return the dispatch-to-callback seconds of each."""
    samples: list[float] = []
    for i in range(warmup + presses):
        ix = await fake.click(user, message, label)
        await ix.wait_callback(timeout=30)
        if i >= warmup and ix.latency is not None:
            samples.append(ix.latency)
    return samples


def summarize(name: str, runs: list[list[float]]) -> LatencyRow:
    """One table row: the median over runs of each run's percentiles, in ms."""

    def med(q: float) -> float:
        return statistics.median(percentile(r, q) for r in runs) * 1000

    mean = statistics.median(statistics.fmean(r) for r in runs) * 1000
    return LatencyRow(name, len(runs[0]), len(runs), med(50), med(90), med(99), mean)


def format_table(rows: list[LatencyRow]) -> str:
    """A plain-text table of rows."""
    head = f"{'bot':<28} {'presses':>7} {'runs':>4} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'mean ms':>8}"
    lines = [head, "-" * len(head)]
    for r in rows:
        stats = " ".join(f"{v:>8.3f}" for v in (r.p50, r.p90, r.p99, r.mean))
        lines.append(f"{r.name:<28} {r.presses:>7} {r.runs:>4} {stats}")
    return "\n".join(lines)


async def noop_run(presses: int) -> list[float]:
    """One run: a fresh fake and no-op bot; the bot posts the button, a user presses it `presses` times."""
    async with FakeDiscord() as fake:
        user = fake.add_user("bench")
        client = NoopBot()
        async with running_bot(client, fake):
            channel = client.get_channel(fake.channel.id)
            assert isinstance(channel, discord.TextChannel)
            sent = await channel.send("press me", view=NoopView())
            return await measure_presses(fake, user, fake.message(sent.id), "Press", presses)


async def noop_row(presses: int = 300, runs: int = 5) -> LatencyRow:
    """The baseline row: the no-op bot over several runs."""
    return summarize("no-op discord.py bot", [await noop_run(presses) for _ in range(runs)])


def main() -> None:
    """Run the baseline and print its table."""
    presses = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    row = asyncio.run(noop_row(presses, runs))
    print("dispatch of INTERACTION_CREATE -> interaction callback received by the fake Discord")
    print(format_table([row]))


if __name__ == "__main__":
    main()
