# syntax=docker/dockerfile:1.7
# Leadgen image: `leadgen-api` (entrypoint; default command `serve`), `leadgen-worker`,
# and the built web app at /app/web. Migrations are compiled into the binaries
# (sqlx::migrate!), so the image needs no migrations folder.
#
#   docker build -t leadgen:1.4.0 --build-arg LEADGEN_RELEASE=leadgen@1.4.0 .
#   docker run --read-only --tmpfs /tmp -p 8080:8080 --env-file prod.env leadgen:dev
#
# Runs as uid 65532 with no shell and a read-only root file system; the only writable
# place it needs is /tmp (LEADGEN_DATA_DIR, used by embedded mode only; production sets
# DATABASE_URL and REDIS_URL and writes nothing). The worker: `command: [leadgen-worker]`.

ARG NODE_IMAGE=node:20-bookworm-slim
ARG RUST_IMAGE=rust:1.95-bookworm
ARG RUNTIME_IMAGE=gcr.io/distroless/cc-debian12:nonroot

# --- web app -----------------------------------------------------------------------------
# Platform-independent output: build it once on the builder's own platform.
FROM --platform=$BUILDPLATFORM ${NODE_IMAGE} AS web
WORKDIR /src/frontend
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
    npm_config_audit=false \
    npm_config_fund=false \
    npm_config_update_notifier=false
# Dependencies first: this layer is reused until the lock file changes.
COPY frontend/package.json frontend/package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci
COPY frontend/ ./
# `vite build && tsc --noEmit`: the type check runs too.
RUN npm run build

# --- binaries ----------------------------------------------------------------------------
FROM ${RUST_IMAGE} AS build
WORKDIR /src
ENV CARGO_TERM_COLOR=never \
    CARGO_INCREMENTAL=0 \
    SQLX_OFFLINE=true
# Every workspace member's manifest must be present for cargo to load the workspace
# (ops/image-check verifies this list against Cargo.toml).
COPY Cargo.toml Cargo.lock rustfmt.toml ./
COPY core core
COPY api api
COPY worker worker
COPY testkit testkit
COPY migrations migrations
# Crates come from the BuildKit cache between builds; `target/` too, so a source change
# recompiles only our crates.
RUN --mount=type=cache,target=/usr/local/cargo/registry,sharing=locked \
    --mount=type=cache,target=/usr/local/cargo/git,sharing=locked \
    cargo fetch --locked
RUN --mount=type=cache,target=/usr/local/cargo/registry,sharing=locked \
    --mount=type=cache,target=/usr/local/cargo/git,sharing=locked \
    --mount=type=cache,target=/src/target,sharing=locked \
    cargo build --release --locked -p leadgen-api -p leadgen-worker \
    && install -D -m 0755 target/release/leadgen-api /out/leadgen-api \
    && install -D -m 0755 target/release/leadgen-worker /out/leadgen-worker

# --- runtime -----------------------------------------------------------------------------
# glibc, libgcc, CA certificates, tzdata; no shell, no package manager.
FROM ${RUNTIME_IMAGE}
# Empty: the binaries report `leadgen@<crate version>`.
ARG LEADGEN_RELEASE=""
LABEL org.opencontainers.image.title="leadgen" \
      org.opencontainers.image.description="Leadgen API, search workers and web app" \
      org.opencontainers.image.version="${LEADGEN_RELEASE}"
COPY --from=build /out/leadgen-api /out/leadgen-worker /usr/local/bin/
COPY --from=web /src/frontend/dist /app/web
ENV LEADGEN_LISTEN=0.0.0.0:8080 \
    LEADGEN_WEB_DIR=/app/web \
    LEADGEN_DATA_DIR=/tmp/leadgen \
    LEADGEN_WORKER_METRICS_LISTEN=0.0.0.0:9091 \
    LEADGEN_LOG_FORMAT=json \
    LEADGEN_RELEASE="${LEADGEN_RELEASE}"
WORKDIR /app
USER 65532:65532
# 8080: API, web app and /metrics. 9091: worker /metrics and /healthz.
EXPOSE 8080 9091
ENTRYPOINT ["/usr/local/bin/leadgen-api"]
CMD ["serve"]
