# syntax=docker/dockerfile:1
# Tailor's image: `docker build -t tailor:0.1.0 .` The CLI runs the TypeScript sources through tsx
# (a production dependency), so there is no build step: stage 1 installs the production
# dependencies only, stage 2 adds the sources (src/ and the workspace packages kube-basics and
# kube-sim, which `tailor sim` and `tailor demo` use) and runs as a non-root user.
# Node 24 is an LTS line (supported until April 2028); the project is developed and tested on
# Node 20, so run the test suite on the image's Node before moving it (--build-arg NODE_IMAGE=...).
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# The workspace packages' manifests, so that npm ci links them (their sources come in stage 2).
COPY packages/kube-basics/package.json packages/kube-basics/
COPY packages/kube-sim/package.json packages/kube-sim/
# --omit=dev: no TypeScript, ESLint or test libraries in the image. --ignore-scripts: no
# install-time code runs (esbuild, used by tsx, finds its platform binary without its script).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY bin ./bin
COPY src ./src
COPY packages ./packages
# Any numeric non-root id works (the manifests run as 65532 with a read-only root file system and a
# writable /tmp for tsx's compile cache); the files above stay owned by root, read-only to it.
USER 65532:65532
EXPOSE 8942 8443
ENTRYPOINT ["node", "bin/tailor.mjs"]
CMD ["run", "--components", "recommender"]
