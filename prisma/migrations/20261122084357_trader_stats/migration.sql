-- CreateTable
CREATE TABLE "TraderPosition" (
    "venue" "Venue" NOT NULL,
    "traderId" TEXT NOT NULL,
    "venueMarketId" TEXT NOT NULL,
    "outcome" "Outcome" NOT NULL,
    "size" DECIMAL(20,6) NOT NULL,
    "costBasis" DECIMAL(20,6) NOT NULL,
    "realizedPnl" DECIMAL(20,6) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TraderPosition_pkey" PRIMARY KEY ("venue","traderId","venueMarketId","outcome")
);

-- CreateTable
CREATE TABLE "TraderStat" (
    "venue" "Venue" NOT NULL,
    "traderId" TEXT NOT NULL,
    "totalVolume" DECIMAL(20,6) NOT NULL,
    "totalTrades" INTEGER NOT NULL,
    "winCount" INTEGER NOT NULL,
    "lossCount" INTEGER NOT NULL,
    "realizedPnl" DECIMAL(20,6) NOT NULL,
    "unrealizedPnl" DECIMAL(20,6) NOT NULL,
    "totalPnl" DECIMAL(20,6) NOT NULL,
    "firstTradeAt" TIMESTAMP(3) NOT NULL,
    "lastTradeAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TraderStat_pkey" PRIMARY KEY ("venue","traderId")
);

-- CreateIndex
CREATE INDEX "TraderStat_totalVolume_idx" ON "TraderStat"("totalVolume");

-- CreateIndex
CREATE INDEX "TraderStat_totalPnl_idx" ON "TraderStat"("totalPnl");

-- CreateIndex
CREATE INDEX "TraderStat_winCount_idx" ON "TraderStat"("winCount");

-- CreateIndex
CREATE INDEX "TraderStat_totalTrades_idx" ON "TraderStat"("totalTrades");
