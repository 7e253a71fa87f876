-- CreateTable
CREATE TABLE "ShownTrade" (
    "venue" "Venue" NOT NULL,
    "venueTradeId" TEXT NOT NULL,
    "venueMarketId" TEXT NOT NULL,
    "firstShownAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ShownTrade_pkey" PRIMARY KEY ("venue","venueTradeId")
);
