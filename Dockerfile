# Agora: the Discord bot. Build: docker build -t agora .
# Run:   docker run -d --name agora --stop-timeout 30 -e DISCORD_TOKEN=... -v agora-data:/data agora
# Stop:  docker stop agora   (SIGTERM: the bot finishes the moves under way and closes its database
#        within 20 s; the metrics, when AGORA_METRICS_PORT is set, listen on every address of the container
#        and are reachable only where that port is published: -p 127.0.0.1:9100:9100)
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    AGORA_DB=/data/agora.db \
    AGORA_METRICS_ADDR=0.0.0.0

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
# `docker stop` sends SIGTERM (said here so that a base image's STOPSIGNAL cannot change it): the bot
# stops cleanly; give it more than its 20 s (docker stop -t 30, compose's stop_grace_period: 30s).
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=60s --timeout=10s --start-period=120s --retries=3 CMD ["python", "-m", "bot", "health"]
CMD ["python", "-m", "bot", "run"]
