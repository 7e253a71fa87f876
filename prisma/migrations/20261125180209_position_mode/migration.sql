-- Paper trading: a position belongs to the live account or to the paper (simulation) account.
DROP INDEX "Position_userId_venue_venueMarketId_outcome_key";

ALTER TABLE "Position" ADD COLUMN     "mode" "ExecutionMode" NOT NULL DEFAULT 'live';

-- Positions built only by simulated orders move to the paper account; any live order keeps a position live.
UPDATE "Position" p SET "mode" = 'simulation'
WHERE EXISTS (SELECT 1 FROM "Order" o WHERE o."positionId" = p."id" AND o."mode" = 'simulation')
  AND NOT EXISTS (SELECT 1 FROM "Order" o WHERE o."positionId" = p."id" AND o."mode" = 'live');

CREATE UNIQUE INDEX "Position_userId_venue_venueMarketId_outcome_mode_key" ON "Position"("userId", "venue", "venueMarketId", "outcome", "mode");
