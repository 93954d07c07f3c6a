# Boardroom: one slim image, running as a non-root user, with its database on the /data volume.
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY engines ./engines
COPY i18n ./i18n
COPY render ./render
COPY bot ./bot
RUN pip install --no-cache-dir --prefix=/install .

FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    BOARDROOM_DB=/data/boardroom.db
COPY --from=build /install /usr/local
RUN useradd --create-home --uid 10001 boardroom \
    && mkdir -p /data && chown boardroom:boardroom /data
USER boardroom
WORKDIR /home/boardroom
VOLUME ["/data"]
# Healthy while the database answers and the bot process is alive.
HEALTHCHECK --interval=60s --timeout=10s --start-period=30s --retries=3 \
    CMD ["boardroom", "health"]
ENTRYPOINT ["boardroom"]
CMD ["run"]
