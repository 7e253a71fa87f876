-- CreateEnum
CREATE TYPE "OrderType" AS ENUM ('market', 'limit');

-- CreateEnum
CREATE TYPE "ExecutionMode" AS ENUM ('simulation', 'live');

-- CreateEnum
CREATE TYPE "OrderState" AS ENUM ('pending', 'submitted', 'partially_filled', 'filled', 'cancelled', 'rejected', 'failed');

-- CreateEnum
CREATE TYPE "PositionStatus" AS ENUM ('open', 'closed', 'pending');

-- CreateTable
CREATE TABLE "RouteIntent" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "coreEventId" TEXT NOT NULL,
    "venue" "Venue" NOT NULL,
    "marketId" TEXT NOT NULL,
    "venueMarketId" TEXT NOT NULL,
    "outcome" "Outcome" NOT NULL,
    "side" "TradeSide" NOT NULL,
    "sizeMicros" BIGINT NOT NULL,
    "quotedPriceMicros" BIGINT NOT NULL,
    "worstPriceMicros" BIGINT NOT NULL,
    "feesMicros" BIGINT NOT NULL,
    "allInCostMicros" BIGINT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "orderId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RouteIntent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Order" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "venue" "Venue" NOT NULL,
    "marketId" TEXT NOT NULL,
    "venueMarketId" TEXT NOT NULL,
    "coreEventId" TEXT,
    "outcome" "Outcome" NOT NULL,
    "side" "TradeSide" NOT NULL,
    "orderType" "OrderType" NOT NULL,
    "mode" "ExecutionMode" NOT NULL,
    "limitPriceMicros" BIGINT,
    "requestedSizeMicros" BIGINT NOT NULL,
    "filledSizeMicros" BIGINT NOT NULL DEFAULT 0,
    "avgPriceMicros" BIGINT,
    "notionalMicros" BIGINT NOT NULL DEFAULT 0,
    "feeMicros" BIGINT NOT NULL DEFAULT 0,
    "state" "OrderState" NOT NULL,
    "failureReason" TEXT,
    "source" TEXT NOT NULL DEFAULT 'execute',
    "positionId" TEXT,
    "externalOrderId" TEXT,
    "idempotencyKey" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Order_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Fill" (
    "id" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "priceMicros" BIGINT NOT NULL,
    "sizeMicros" BIGINT NOT NULL,
    "feeMicros" BIGINT NOT NULL,
    "filledAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Fill_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Position" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "venue" "Venue" NOT NULL,
    "marketId" TEXT NOT NULL,
    "venueMarketId" TEXT NOT NULL,
    "coreEventId" TEXT,
    "outcome" "Outcome" NOT NULL,
    "status" "PositionStatus" NOT NULL,
    "sizeMicros" BIGINT NOT NULL,
    "costBasisMicros" BIGINT NOT NULL,
    "realizedPnlMicros" BIGINT NOT NULL DEFAULT 0,
    "feesMicros" BIGINT NOT NULL DEFAULT 0,
    "openedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Position_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "RouteIntent_orderId_key" ON "RouteIntent"("orderId");

-- CreateIndex
CREATE INDEX "RouteIntent_userId_createdAt_idx" ON "RouteIntent"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "Order_userId_createdAt_idx" ON "Order"("userId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Order_userId_state_idx" ON "Order"("userId", "state");

-- CreateIndex
CREATE INDEX "Order_positionId_idx" ON "Order"("positionId");

-- CreateIndex
CREATE UNIQUE INDEX "Order_userId_idempotencyKey_key" ON "Order"("userId", "idempotencyKey");

-- CreateIndex
CREATE INDEX "Fill_filledAt_idx" ON "Fill"("filledAt");

-- CreateIndex
CREATE UNIQUE INDEX "Fill_orderId_seq_key" ON "Fill"("orderId", "seq");

-- CreateIndex
CREATE INDEX "Position_userId_status_updatedAt_idx" ON "Position"("userId", "status", "updatedAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "Position_userId_venue_venueMarketId_outcome_key" ON "Position"("userId", "venue", "venueMarketId", "outcome");

-- AddForeignKey
ALTER TABLE "Fill" ADD CONSTRAINT "Fill_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE CASCADE ON UPDATE CASCADE;
