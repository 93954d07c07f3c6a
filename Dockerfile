# Boardroom: one slim image, running as a non-root user, with its database on the /data volume.
# BASE_IMAGE may be any Debian-like image with python3 and its venv module (pip is not needed
# on it: the build makes a virtual environment at /opt/venv, and the final stage copies it to
# the same path on the same base). CI builds on a debootstrap image (.ci/container-setup).
ARG BASE_IMAGE=python:3.11-slim
FROM ${BASE_IMAGE} AS build
# lets .ci/container-setup drop old build-stage images (the recent ones are the layer cache)
LABEL boardroom.stage=build
# pip settings a build behind its own index or certificate authority may need (unset: PyPI)
ARG PIP_INDEX_URL
ARG PIP_EXTRA_INDEX_URL
ARG PIP_TRUSTED_HOST
ARG PIP_CERT
ARG PIP_DEFAULT_TIMEOUT
ENV PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
RUN python3 -m venv /opt/venv
COPY pyproject.toml README.md ./
COPY engines ./engines
COPY i18n ./i18n
COPY render ./render
COPY bot ./bot
COPY games ./games
RUN /opt/venv/bin/pip install --no-cache-dir . \
    && find /opt/venv -name __pycache__ -prune -exec rm -rf {} +

FROM ${BASE_IMAGE}
# GNU FriBidi: Pillow's wheel loads it at run time for its libraqm layout, which joins Arabic
# letters and orders right-to-left text (without it, names in Arabic are drawn unjoined)
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libfribidi0 \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/cache/apt/archives/*.deb
# BOARDROOM_IN_CONTAINER: the bot refuses to start with a database off the /data volume (one
# left over in an --env-file would be lost with the container) unless
# BOARDROOM_ALLOW_DB_OUTSIDE_DATA=1 says so.
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    BOARDROOM_DB=/data/boardroom.db \
    BOARDROOM_IN_CONTAINER=1 \
    BOARDROOM_METRICS_PORT=9108
COPY --from=build /opt/venv /opt/venv
RUN useradd --create-home --uid 10001 boardroom \
    && mkdir -p /data && chown boardroom:boardroom /data
USER boardroom
WORKDIR /home/boardroom
VOLUME ["/data"]
# Healthy while the bot's /readyz (on BOARDROOM_METRICS_PORT, inside the container) answers 200:
# connected to Discord, database answering and up to date. With the port emptied, while its
# heartbeat file (next to the database, touched every 30 s while connected) is under 2 minutes old.
HEALTHCHECK --interval=60s --timeout=10s --start-period=30s --retries=3 \
    CMD ["boardroom", "health"]
ENTRYPOINT ["boardroom"]
CMD ["run"]
