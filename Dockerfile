# syntax=docker/dockerfile:1
# Language service: docker build -t language-service . && docker run -p 8080:8080 language-service

# --- build: compile TypeScript and native add-ons against Node 24's own headers ---
FROM node:24-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV npm_config_nodedir=/usr/local
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/copy-assets.mjs ./scripts/
COPY src ./src
RUN npm run build && npm prune --omit=dev

# --- runtime: Node 24, the embedded engines' Debian packages, a non-root user ---
FROM node:24-bookworm-slim
# the same script and package list the Makefile and CI use, plus tini: Apertium pipeline stages
# killed on restart are reparented to PID 1, which must reap them (no --init needed)
COPY scripts/install-debian-deps.sh scripts/debian-packages.txt /tmp/deps/
RUN bash /tmp/deps/install-debian-deps.sh tini \
 && rm -rf /var/lib/apt/lists/* /tmp/deps
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json openapi.yaml ./
# the playground page: static files served from web/ at the package root (src/http/web.ts)
COPY web ./web
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
# document jobs (their requests, states and results) live here: a volume, so a restart resumes them
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/health').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--"]
# small young generations (the offline thread keeps a larger one): less memory, same speed (docs/benchmarks.md, "Memory budget")
CMD ["node", "--max-semi-space-size=2", "--max-old-space-size=1024", "dist/server.js"]
