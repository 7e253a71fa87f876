# The service's image: `docker build -t prediction-aggregator .` (compose.yaml builds it too).
# Every RUN and the CMD below are also run by CI (.ci/run, scripts/check-dockerfile.ts), outside Docker.

# Production dependencies only (the runtime stage copies this node_modules).
FROM node:24-bookworm-slim AS deps
WORKDIR /app
# postinstall generates the Prisma client from prisma/ with scripts/prisma-generate.js.
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
COPY scripts ./scripts
RUN npm ci --omit=dev --no-audit --no-fund

# Compile src/ to dist/ with every dependency installed.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
COPY scripts ./scripts
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:24-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    DATA_DIR=/home/node/data
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY prisma ./prisma
# Not root. The embedded database (when DATABASE_URL is unset) lives in the user's home.
USER node
EXPOSE 4000
# Readiness: database and Redis answer, migrations and start-up work done, not draining.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--max-semi-space-size=8", "--liftoff-only", "dist/main.js"]
