# Boardroom: one slim image, running as a non-root user, with its database on the /data volume.
# BASE_IMAGE may be any Debian-like image with python3; both stages use it.
ARG BASE_IMAGE=python:3.11-slim
FROM ${BASE_IMAGE} AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY engines ./engines
COPY i18n ./i18n
COPY render ./render
COPY bot ./bot
RUN pip install --no-cache-dir --prefix=/install .

FROM ${BASE_IMAGE}
# BOARDROOM_IN_CONTAINER: the bot refuses to start with a database off the /data volume (one
# left over in an --env-file would be lost with the container) unless
# BOARDROOM_ALLOW_DB_OUTSIDE_DATA=1 says so.
ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    BOARDROOM_DB=/data/boardroom.db \
    BOARDROOM_IN_CONTAINER=1
COPY --from=build /install /usr/local
RUN useradd --create-home --uid 10001 boardroom \
    && mkdir -p /data && chown boardroom:boardroom /data
USER boardroom
WORKDIR /home/boardroom
VOLUME ["/data"]
# Healthy while the bot's heartbeat file (next to the database, touched every 30 s while it is
# connected to Discord) is less than two minutes old.
HEALTHCHECK --interval=60s --timeout=10s --start-period=30s --retries=3 \
    CMD ["boardroom", "health"]
ENTRYPOINT ["boardroom"]
CMD ["run"]
