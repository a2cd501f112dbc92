# Wrench: the service image. Build: docker build -t wrench .  Run: see docker-compose.yml.
FROM node:26-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY app ./app
COPY src ./src
COPY handlers ./handlers
COPY runners ./runners
RUN npm run build && npm prune --omit=dev

FROM node:26-bookworm-slim
# git for workspaces, bubblewrap for the sandbox, redis-server for the embedded default,
# python3 with pandas and matplotlib for data-analysis tasks, build tools for repositories' own installs,
# tini as PID 1 so that git and bwrap children that exit are reaped, not left as zombies.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini git bubblewrap redis-server ca-certificates \
      python3 python3-pandas python3-matplotlib python3-pytest make g++ \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production WRENCH_DATA_DIR=/data WRENCH_CONFIG=/config/wrench.config.yml PORT=3000
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json manifest.yml ./
RUN ln -s /app/dist/bin/wrench.js /usr/local/bin/wrench && chmod +x /app/dist/bin/wrench.js \
 && mkdir -p /data /config && chown node:node /data
# Wrench runs as the image's unprivileged `node` user (uid 1000). bwrap then needs user namespaces inside the container:
# see "Containers" in README.md for the security options that allow them.
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--", "node", "/app/dist/bin/wrench.js"]
CMD ["start"]
