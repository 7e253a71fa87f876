-- CreateEnum
CREATE TYPE "RewardType" AS ENUM ('cashback', 'referral_tier1', 'referral_tier2', 'points');

-- CreateEnum
CREATE TYPE "RewardState" AS ENUM ('pending', 'available', 'claimed');

-- CreateEnum
CREATE TYPE "RewardEventKind" AS ENUM ('accrued', 'available', 'claimed');

-- CreateTable
CREATE TABLE "RewardAccount" (
    "userId" TEXT NOT NULL,
    "code" TEXT,
    "referrerId" TEXT,
    "referredCode" TEXT,
    "referredAt" TIMESTAMP(3),
    "firstFeeAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RewardAccount_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "RewardEntry" (
    "id" BIGSERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "type" "RewardType" NOT NULL,
    "amountMicros" BIGINT NOT NULL,
    "state" "RewardState" NOT NULL DEFAULT 'pending',
    "source" TEXT NOT NULL,
    "sourceUserId" TEXT NOT NULL,
    "feeMicros" BIGINT NOT NULL,
    "rate" INTEGER NOT NULL,
    "accruedAt" TIMESTAMP(3) NOT NULL,
    "availableAt" TIMESTAMP(3) NOT NULL,
    "claimId" TEXT,
    "claimedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RewardEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RewardEvent" (
    "id" BIGSERIAL NOT NULL,
    "rewardId" BIGINT NOT NULL,
    "userId" TEXT NOT NULL,
    "type" "RewardType" NOT NULL,
    "event" "RewardEventKind" NOT NULL,
    "amountMicros" BIGINT NOT NULL,
    "source" TEXT NOT NULL,
    "claimId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RewardEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RewardClaim" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "walletId" TEXT NOT NULL,
    "chain" "Chain" NOT NULL,
    "address" TEXT NOT NULL,
    "amountMicros" BIGINT NOT NULL,
    "entries" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RewardClaim_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "RewardAccount_code_key" ON "RewardAccount"("code");

-- CreateIndex
CREATE INDEX "RewardAccount_referrerId_idx" ON "RewardAccount"("referrerId");

-- CreateIndex
CREATE INDEX "RewardEntry_userId_id_idx" ON "RewardEntry"("userId", "id");

-- CreateIndex
CREATE INDEX "RewardEntry_userId_state_availableAt_idx" ON "RewardEntry"("userId", "state", "availableAt");

-- CreateIndex
CREATE INDEX "RewardEntry_state_availableAt_idx" ON "RewardEntry"("state", "availableAt");

-- CreateIndex
CREATE INDEX "RewardEntry_accruedAt_idx" ON "RewardEntry"("accruedAt");

-- CreateIndex
CREATE UNIQUE INDEX "RewardEntry_source_type_key" ON "RewardEntry"("source", "type");

-- CreateIndex
CREATE INDEX "RewardEvent_userId_id_idx" ON "RewardEvent"("userId", "id");

-- CreateIndex
CREATE INDEX "RewardClaim_userId_createdAt_idx" ON "RewardClaim"("userId", "createdAt");

-- Rewards are positive amounts of a positive fee; a claim moves a positive amount.
ALTER TABLE "RewardEntry" ADD CONSTRAINT "RewardEntry_positive" CHECK ("amountMicros" > 0 AND "feeMicros" > 0);
ALTER TABLE "RewardClaim" ADD CONSTRAINT "RewardClaim_positive" CHECK ("amountMicros" > 0 AND "entries" > 0);
