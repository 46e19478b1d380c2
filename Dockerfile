# syntax=docker/dockerfile:1
# The gateway's image (docs/operations.md). Node 22 as the repository pins it (package.json's `node`
# devDependency, 22.23.3). No container runtime runs where this was written: the image itself was never
# built there. packages/server/test/deploy/CleanFolder.test.ts reads THIS file and executes its stages
# (WORKDIR, COPY, ENV, RUN, CMD) in clean folders without docker, so keep to those instructions, one
# command per line, and `/app` as the work folder; the test fails on anything it cannot run.

FROM node:22.23.3-slim AS build
WORKDIR /app
COPY . .
# Installs every workspace with its dev dependencies; the root `prepare` script builds the console and the server too.
RUN npm ci --no-audit --no-fund
# What `npm start` runs (its `prestart`), built explicitly so the image never depends on `prepare`.
RUN npm run -s build -w @gateway/console -w @gateway/server
# The runtime's tree: the manifests and lockfile for a production install, the bundle, the console's page, an empty DATA_DIR.
RUN mkdir -p runtime/data && cp --parents package.json package-lock.json packages/*/package.json packages/server/dist/main.mjs runtime/ && cp -r packages/console/dist runtime/packages/console/dist

FROM node:22.23.3-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production
ENV HOST=0.0.0.0
ENV PORT=8787
ENV DATA_DIR=/app/data
ENV NODE_COMPILE_CACHE=/tmp/node-compile-cache
ENV MALLOC_MMAP_THRESHOLD_=131072
ENV MALLOC_TRIM_THRESHOLD_=131072
COPY --from=build --chown=node:node /app/runtime ./
# Production dependencies of what the bundle still loads at run time: PGlite and fs-native-extensions (kept
# outside the bundle), effect (its HttpApiScalar is resolved at run time) and @gateway/console (the page's
# folder is found through its package). No scripts: the root `prepare` builds, which needs dev dependencies.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund -w @gateway/server -w @gateway/console
USER node
EXPOSE 8787
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8787)+'/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# `npm start`'s command without npm: node directly, so SIGTERM reaches the gateway and it drains.
CMD ["node", "--max-semi-space-size=2", "--expose-gc", "packages/server/dist/main.mjs"]
