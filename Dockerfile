# syntax=docker/dockerfile:1
# Tailor's image: `docker build -t tailor:0.1.0 .` (or buildah/podman). Stage 1 installs every
# dependency, compiles the image's CLI (scripts/build.mjs --image: esbuild, no TypeScript compiler
# at run time) and gathers the npm packages that bundle imports, with their dependencies
# (scripts/image-modules.mjs); stage 2 holds those and the bundle, and runs as a non-root user.
# The image's CLI is `tailor run` and `tailor audit`, what the Deployments and the audit CronJob
# run: the other commands say in one line that they are not in it, and the image carries no
# kube-sim, demo, replay engine, TypeScript loader or client-node package (the bundle holds what
# it uses of client-node): decision 0290.
# Node 24 is an LTS line (supported until April 2028); the project is developed and tested on
# Node 20, so run the test suite on the image's Node before moving it (--build-arg NODE_IMAGE=...).
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/kube-basics/package.json packages/kube-basics/
COPY packages/kube-sim/package.json packages/kube-sim/
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY scripts/build.mjs scripts/node-fetch-native-url.mjs scripts/axios-lazy-fetch-globals.mjs scripts/image-modules.mjs scripts/
COPY src ./src
COPY packages ./packages
# image/node_modules: only the packages the bundle imports and their dependencies, copied from the
# install above (the script fails on a dev dependency); --ignore-scripts there: no install-time code ran.
RUN node scripts/build.mjs --image --outdir image/dist && node scripts/image-modules.mjs image/dist image

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
# jemalloc instead of glibc's malloc (Debian's libjemalloc2): glibc kept the freed buffers of the
# bootstrap's Prometheus answers in a fragmented arena (38-41 MiB of the recommender's resident
# set at 1,000 containers, never returned); with jemalloc the recommender holds 100 MiB there
# instead of 128-150 (decision 0272, `npm run bench:upstream-recommender`). A base image that has
# the library already (the real-cluster lane's) skips apt-get. MALLOC_CONF: a background thread
# hands freed pages back after 1 s (jemalloc's default keeps them 10 s and purges only when next
# called, which left the idle controller ~9 MiB larger in half of the runs).
RUN if ! ldconfig -p | grep -q 'libjemalloc.so.2 '; then \
      apt-get update && apt-get install -y --no-install-recommends libjemalloc2 && rm -rf /var/lib/apt/lists/*; \
    fi
ENV LD_PRELOAD=libjemalloc.so.2
ENV MALLOC_CONF=background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0
WORKDIR /app
COPY --from=build /app/image/node_modules ./node_modules
COPY package.json ./
COPY bin ./bin
COPY --from=build /app/image/dist ./dist
# Any numeric non-root id works (the manifests run as 65532 with a read-only root file system); the
# files above stay owned by root, read-only to it.
USER 65532:65532
EXPOSE 8942 8443
# --max-semi-space-size=2 (MiB): V8's young generation may grow to 16 MiB per semi-space by
# default, both semi-spaces resident after start-up. Capped at 4, the idle controller held ~14 MiB
# less (decision 0244); at 2, ~4 MiB less again, for a 1,000-container bootstrap's CPU within the
# noise of its runs (+4%; decision 0267, `npm run bench:base-rss`, `npm run bench:scale`).
# --v8-pool-size=1: one V8 background thread instead of four (garbage collection and compilation
# helpers): ~3 MiB less resident at idle (their stacks and malloc arenas), no measurable CPU cost
# (decision 0266).
ENTRYPOINT ["node", "--max-semi-space-size=2", "--v8-pool-size=1", "bin/tailor.mjs"]
CMD ["run", "--components", "recommender"]
