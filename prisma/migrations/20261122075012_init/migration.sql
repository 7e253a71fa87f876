-- CreateEnum
CREATE TYPE "Venue" AS ENUM ('venue_a', 'venue_b');

-- CreateEnum
CREATE TYPE "SourceType" AS ENUM ('matched', 'venue_a_only', 'venue_b_only');

-- CreateEnum
CREATE TYPE "MarketStatus" AS ENUM ('active', 'closed', 'resolved');

-- CreateEnum
CREATE TYPE "TradeSide" AS ENUM ('buy', 'sell');

-- CreateEnum
CREATE TYPE "Outcome" AS ENUM ('yes', 'no');

-- CreateTable
CREATE TABLE "CoreEvent" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "category" TEXT NOT NULL,
    "sourceType" "SourceType" NOT NULL,
    "closeTime" TIMESTAMP(3),
    "activityScore" DECIMAL(20,6) NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CoreEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Market" (
    "id" TEXT NOT NULL,
    "venue" "Venue" NOT NULL,
    "venueMarketId" TEXT NOT NULL,
    "venueEventId" TEXT NOT NULL,
    "coreEventId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "slug" TEXT,
    "status" "MarketStatus" NOT NULL,
    "outcomes" TEXT[],
    "endDate" TIMESTAMP(3),
    "bestBid" DECIMAL(10,6),
    "bestAsk" DECIMAL(10,6),
    "lastPrice" DECIMAL(10,6),
    "volume" DECIMAL(20,6),
    "volume24h" DECIMAL(20,6),
    "openInterest" DECIMAL(20,6),
    "liquidity" DECIMAL(20,6),
    "iconUrl" TEXT,
    "imageUrl" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Market_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Trade" (
    "id" TEXT NOT NULL,
    "venue" "Venue" NOT NULL,
    "venueTradeId" TEXT NOT NULL,
    "venueMarketId" TEXT NOT NULL,
    "venueTraderId" TEXT,
    "side" "TradeSide" NOT NULL,
    "outcome" "Outcome" NOT NULL,
    "price" DECIMAL(10,6) NOT NULL,
    "size" DECIMAL(20,6) NOT NULL,
    "filledAt" TIMESTAMP(3) NOT NULL,
    "ingestedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Trade_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IngestState" (
    "venue" "Venue" NOT NULL,
    "lastTradeAt" TIMESTAMP(3),
    "lastSeenAt" TIMESTAMP(3),
    "tradesSeen" BIGINT NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "IngestState_pkey" PRIMARY KEY ("venue")
);

-- CreateIndex
CREATE UNIQUE INDEX "CoreEvent_slug_key" ON "CoreEvent"("slug");

-- CreateIndex
CREATE INDEX "CoreEvent_category_idx" ON "CoreEvent"("category");

-- CreateIndex
CREATE INDEX "CoreEvent_sourceType_idx" ON "CoreEvent"("sourceType");

-- CreateIndex
CREATE INDEX "CoreEvent_updatedAt_idx" ON "CoreEvent"("updatedAt");

-- CreateIndex
CREATE INDEX "CoreEvent_closeTime_idx" ON "CoreEvent"("closeTime");

-- CreateIndex
CREATE INDEX "CoreEvent_activityScore_idx" ON "CoreEvent"("activityScore");

-- CreateIndex
CREATE INDEX "Market_coreEventId_idx" ON "Market"("coreEventId");

-- CreateIndex
CREATE INDEX "Market_status_idx" ON "Market"("status");

-- CreateIndex
CREATE UNIQUE INDEX "Market_venue_venueMarketId_key" ON "Market"("venue", "venueMarketId");

-- CreateIndex
CREATE INDEX "Trade_venue_venueMarketId_filledAt_idx" ON "Trade"("venue", "venueMarketId", "filledAt" DESC);

-- CreateIndex
CREATE INDEX "Trade_venueTraderId_idx" ON "Trade"("venueTraderId");

-- CreateIndex
CREATE INDEX "Trade_filledAt_idx" ON "Trade"("filledAt");

-- CreateIndex
CREATE UNIQUE INDEX "Trade_venue_venueTradeId_key" ON "Trade"("venue", "venueTradeId");

-- AddForeignKey
ALTER TABLE "Market" ADD CONSTRAINT "Market_coreEventId_fkey" FOREIGN KEY ("coreEventId") REFERENCES "CoreEvent"("id") ON DELETE CASCADE ON UPDATE CASCADE;
