-- CreateEnum
CREATE TYPE "CatalogDecisionKind" AS ENUM ('merge', 'separate');

-- CreateEnum
CREATE TYPE "CatalogDecisionOrigin" AS ENUM ('matcher', 'admin');

-- AlterTable
ALTER TABLE "Market" ADD COLUMN     "outcomeTokenIds" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "CatalogDecision" (
    "id" SERIAL NOT NULL,
    "venueAEventId" TEXT NOT NULL,
    "venueBEventId" TEXT NOT NULL,
    "decision" "CatalogDecisionKind" NOT NULL,
    "origin" "CatalogDecisionOrigin" NOT NULL,
    "pinned" BOOLEAN NOT NULL DEFAULT false,
    "similarity" DECIMAL(8,6) NOT NULL,
    "relationshipType" "RelationshipType",
    "confidence" "MatchConfidence",
    "reason" TEXT NOT NULL,
    "coreEventId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CatalogDecision_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CatalogDecision_venueBEventId_idx" ON "CatalogDecision"("venueBEventId");

-- CreateIndex
CREATE UNIQUE INDEX "CatalogDecision_venueAEventId_venueBEventId_key" ON "CatalogDecision"("venueAEventId", "venueBEventId");
