# One container, one volume: docker compose up -d (see compose.yaml and docs/deploy.md).
# Stage 1 installs the runtime dependencies from the lockfile (npm ci: exact versions, no dev tools).
FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# npm ci's postinstall patches postgres.js (a dropped connection must not end the process).
COPY scripts/patch-postgres-client.mjs ./scripts/
RUN npm ci --omit=dev --no-audit --no-fund

# Stage 2: Bun (the same version as the pinned devDependency) with the app; glibc for resvg's native addon.
FROM oven/bun:1.4.5-slim
WORKDIR /app
# MIMALLOC_PURGE_DELAY: the launch settings of src/launch-env.ts (read by the runtime before the service starts).
ENV NODE_ENV=production \
    MIMALLOC_PURGE_DELAY=250 \
    HOST=0.0.0.0 \
    PORT=9478 \
    DATA_DIR=/data \
    CONFIG_DIR=/config
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY drizzle ./drizzle
COPY assets ./assets
COPY src ./src
# The image's unprivileged "bun" user (uid 1000) owns only the data volume; /config (push_map.json,
# bark_map.json) is a read-only bind mount of the host's ./config (compose.yaml), read at start.
RUN mkdir -p /data /config && chown -R bun:bun /data
USER bun
VOLUME ["/data"]
EXPOSE 9478
# 503 when the database cannot be read or DATA_DIR is below MIN_FREE_DISK_MB.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["bun", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 9478) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM: HTTP stops, running stages get SHUTDOWN_GRACE_MS, the rest stays queued.
STOPSIGNAL SIGTERM
# Owner commands and the demo run in the same container: docker compose exec mysekai-ingest bun src/main.ts cli jobs
CMD ["bun", "run", "src/main.ts"]
