# syntax=docker/dockerfile:1
# Entropic CRMArena images, both for linux/amd64 (what AgentBeats runs):
#   docker build --platform linux/amd64 -t entropic-crmarena .                                   # the green agent (default target)
#   docker build --platform linux/amd64 --target purple-llm -t entropic-crmarena-purple-llm .    # the baseline LLM purple agent
# Each image holds exactly the npm package (package.json "files" decides what ships), installed
# from its tarball with production dependencies only, at the versions of package-lock.json.
# The real CRMArena-Pro data (CC BY-NC 4.0) is fetched at build time, so the image needs no
# network at run time. --build-arg FETCH_DATA=0 builds an image with only the bundled sample.

FROM --platform=linux/amd64 node:20-slim AS build
# better-sqlite3 compiles from source when no prebuilt binary can be downloaded.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ ca-certificates && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && mkdir /tmp/pack && npm pack --pack-destination /tmp/pack
# The addon built above, offered to the install below as a prebuild-install "local prebuild" so
# it is unpacked there rather than compiled a second time.
RUN mkdir /tmp/prebuilds \
 && tar -czf "/tmp/prebuilds/better-sqlite3-v$(node -p 'require("better-sqlite3/package.json").version')-node-v$(node -p process.versions.modules)-linux-$(node -p process.arch).tar.gz" \
      -C node_modules/better-sqlite3 build/Release/better_sqlite3.node
WORKDIR /app
RUN cp /src/package-lock.json . \
 && echo '{ "name": "entropic-crmarena-image", "private": true, "allowScripts": { "better-sqlite3": true } }' > package.json \
 && echo "local-prebuilds=/tmp/prebuilds" > .prebuild-installrc \
 && npm install --omit=dev --no-audit --no-fund /tmp/pack/entropic-crmarena-*.tgz \
 && rm .prebuild-installrc
ARG FETCH_DATA=1
RUN if [ "$FETCH_DATA" = "1" ]; then node_modules/.bin/entropic-crmarena data fetch; fi

FROM --platform=linux/amd64 node:20-slim AS runtime
# curl for the health checks (this image's, and the one AgentBeats' compose file declares).
RUN apt-get update && apt-get install -y --no-install-recommends curl && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production PATH=/app/node_modules/.bin:$PATH
WORKDIR /app
# Owned by the unprivileged user: the judge caches its verdicts under the package's data/cache.
COPY --from=build --chown=node:node /app /app
USER node
EXPOSE 9009
HEALTHCHECK --interval=5s --timeout=3s --start-period=30s --retries=10 CMD curl -fsS http://localhost:9009/.well-known/agent-card.json || exit 1

# The baseline LLM purple agent (PURPLE_LLM_API_KEY, PURPLE_LLM_BASE_URL, PURPLE_LLM_MODEL).
FROM runtime AS purple-llm
ENTRYPOINT ["entropic-crmarena", "purple", "--strategy", "llm", "--host", "0.0.0.0", "--port", "9009"]

# The green agent; the last stage, so the default target. AgentBeats passes --host, --port and
# --card-url as the container command: they follow these defaults and override them.
FROM runtime AS green
# A heap cap makes V8 collect garbage before the heap balloons: measured with npm run bench, RSS
# over 10 full runs in one process then stays within about 50 MB of its first run.
ENV NODE_OPTIONS=--max-old-space-size=384
ENTRYPOINT ["entropic-crmarena", "serve", "--host", "0.0.0.0", "--port", "9009"]
