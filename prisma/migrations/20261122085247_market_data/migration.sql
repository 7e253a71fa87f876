-- CreateEnum
CREATE TYPE "ApiKeyPlan" AS ENUM ('free', 'pro', 'enterprise');

-- CreateEnum
CREATE TYPE "ApiKeyScope" AS ENUM ('read', 'write');

-- CreateEnum
CREATE TYPE "RelationshipType" AS ENUM ('exact_match', 'similar');

-- CreateEnum
CREATE TYPE "MatchConfidence" AS ENUM ('high', 'medium', 'low');

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "keyHash" TEXT NOT NULL,
    "keyPreview" TEXT NOT NULL,
    "scopes" "ApiKeyScope"[],
    "plan" "ApiKeyPlan" NOT NULL DEFAULT 'free',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "ApiKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiUsageDaily" (
    "owner" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "requests" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "ApiUsageDaily_pkey" PRIMARY KEY ("owner","endpoint","day")
);

-- CreateTable
CREATE TABLE "Comparison" (
    "id" SERIAL NOT NULL,
    "venueAEventId" TEXT NOT NULL,
    "venueBEventId" TEXT NOT NULL,
    "coreEventId" TEXT,
    "venueATitle" TEXT,
    "venueBTitle" TEXT,
    "relationshipType" "RelationshipType" NOT NULL,
    "confidence" "MatchConfidence" NOT NULL,
    "reasoning" TEXT,
    "bucket" TEXT,
    "subtag" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Comparison_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_keyHash_key" ON "ApiKey"("keyHash");

-- CreateIndex
CREATE INDEX "ApiKey_owner_createdAt_idx" ON "ApiKey"("owner", "createdAt");

-- CreateIndex
CREATE INDEX "ApiUsageDaily_owner_day_idx" ON "ApiUsageDaily"("owner", "day");

-- CreateIndex
CREATE INDEX "Comparison_bucket_id_idx" ON "Comparison"("bucket", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Comparison_venueAEventId_venueBEventId_key" ON "Comparison"("venueAEventId", "venueBEventId");
