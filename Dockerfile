# Entropic CRMArena green agent.
# Build: docker build --platform linux/amd64 -t entropic-crmarena .
# The real CRMArena-Pro data (CC BY-NC 4.0) is fetched at build time, so the image needs no
# network at run time. Build with --build-arg FETCH_DATA=0 to ship only the bundled sample.

FROM node:20-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ ca-certificates && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY data/sample ./data/sample
RUN npm run build && npm prune --omit=dev
ARG FETCH_DATA=1
RUN if [ "$FETCH_DATA" = "1" ]; then node dist/cli.js data fetch; fi

FROM node:20-slim
RUN apt-get update && apt-get install -y --no-install-recommends curl && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/data ./data
EXPOSE 9009
HEALTHCHECK --interval=5s --timeout=3s --start-period=30s --retries=10 CMD curl -fsS http://localhost:9009/.well-known/agent-card.json || exit 1
# AgentBeats passes --host, --port and --card-url as the container command; they override these.
ENTRYPOINT ["node", "dist/cli.js", "serve", "--host", "0.0.0.0", "--port", "9009"]
