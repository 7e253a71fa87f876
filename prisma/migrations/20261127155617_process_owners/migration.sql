-- AlterTable
ALTER TABLE "IdempotentRequest" ADD COLUMN     "ownerId" TEXT;

-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "ownerId" TEXT;

-- AlterTable
ALTER TABLE "Withdrawal" ADD COLUMN     "dispatchOwnerId" TEXT;

-- CreateTable
CREATE TABLE "ProcessOwner" (
    "id" TEXT NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "aliveUntil" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ProcessOwner_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Order_state_updatedAt_idx" ON "Order"("state", "updatedAt");
