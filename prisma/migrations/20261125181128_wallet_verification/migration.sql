-- Wallet ownership: imported wallets are unverified until their owner signs a challenge. The
-- former one-user-per-address index held, so the new unique keys hold on existing rows.
-- CreateEnum
CREATE TYPE "WalletVerification" AS ENUM ('unverified', 'verified');

-- DropIndex
DROP INDEX "Wallet_chain_address_key";

-- AlterTable
ALTER TABLE "Wallet" ADD COLUMN     "challenge" TEXT,
ADD COLUMN     "challengeExpiresAt" TIMESTAMP(3),
ADD COLUMN     "ownerSlot" TEXT,
ADD COLUMN     "verification" "WalletVerification" NOT NULL DEFAULT 'unverified',
ADD COLUMN     "verifiedAt" TIMESTAMP(3);

-- CreateIndex
CREATE UNIQUE INDEX "Wallet_ownerSlot_key" ON "Wallet"("ownerSlot");

-- CreateIndex
CREATE INDEX "Wallet_chain_address_idx" ON "Wallet"("chain", "address");

-- CreateIndex
CREATE UNIQUE INDEX "Wallet_userId_chain_address_key" ON "Wallet"("userId", "chain", "address");

-- Hand-written: provisioned wallets are verified (the service holds their keys); imported ones
-- linked before this migration stay unverified until their owner signs a challenge.
UPDATE "Wallet"
SET "verification" = 'verified', "verifiedAt" = "createdAt", "ownerSlot" = "chain"::text || ':' || "address"
WHERE "kind" = 'provisioned';
