# Agora: the Discord bot. Build: docker build -t agora .
# Run:   docker run -d --name agora -e DISCORD_TOKEN=... -v agora-data:/data agora
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    AGORA_DB=/data/agora.db

RUN useradd --create-home --uid 10001 agora \
    && mkdir /data \
    && chown agora:agora /data

WORKDIR /app
COPY pyproject.toml README.md constraints.txt ./
COPY engine ./engine
COPY render ./render
COPY bot ./bot
RUN pip install -c constraints.txt .

USER 10001
VOLUME ["/data"]
# Healthy while the bot is connected to Discord and its database answers (a heartbeat file: bot/ops.py).
HEALTHCHECK --interval=60s --timeout=10s --start-period=120s --retries=3 CMD ["python", "-m", "bot", "health"]
CMD ["python", "-m", "bot", "run"]
