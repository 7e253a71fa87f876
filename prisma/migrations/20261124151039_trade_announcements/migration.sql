-- CreateTable
CREATE TABLE "TradeAnnouncement" (
    "id" BIGSERIAL NOT NULL,
    "venue" "Venue" NOT NULL,
    "tradeIds" TEXT[],
    "pending" TEXT[],
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "leaseUntil" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TradeAnnouncement_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "TradeAnnouncement_leaseUntil_idx" ON "TradeAnnouncement"("leaseUntil");
