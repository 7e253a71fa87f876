-- AlterTable
ALTER TABLE "Withdrawal" ADD COLUMN     "dispatchClaimedUntil" TIMESTAMP(3);
