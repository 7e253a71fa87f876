import { randomUUID } from 'node:crypto';
import { Prisma } from '../../db/generated/client';
import { AppError } from '../../errors/app-error';
import type { IdempotencyService } from '../idempotency/idempotency.service';
import type { LedgerService } from '../ledger/ledger.service';
import { microsToNumber } from '../../money';
import type { NewNotification } from '../notifications';
import { CLAIMABLE_TYPES, REWARD_CLAIM_KIND, type RewardType } from './rewards.limits';
import { trailOf, type RewardClaimView } from './rewards.models';
import type { RewardsService } from './rewards.service';

/**
 * Claims: every available USD reward of the caller (cashback and both referral
 * tiers; points are a score and stay) is credited to their balance ledger as
 * one `reward_claim` movement, in the transaction that marks the rewards
 * claimed, for the wallet the caller names (one of theirs). Exactly once: the
 * conditional update locks the rewards it takes, so a concurrent claim finds
 * nothing left (400); an `Idempotency-Key` replays the first answer instead.
 */
export class RewardClaimsService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly idempotency: IdempotencyService,
    private readonly rewards: RewardsService,
    private readonly notify: (items: NewNotification[]) => Promise<unknown>,
    private readonly now: () => number = Date.now,
  ) {}

  /** `admit` (the caller's rate limit) is spent only by a claim that runs, not by a replayed Idempotency-Key. */
  async claim(userId: string, walletId: string, key?: string, admit?: () => Promise<void>): Promise<RewardClaimView> {
    await this.rewards.release(userId);
    let made: RewardClaimView | undefined;
    const call = { userId, operation: 'rewards.claim', key, input: { walletId }, admit };
    const answer = await this.idempotency.inTransaction(call, async (tx) => {
      const wallet = await tx.wallet.findFirst({
        where: { id: walletId, userId },
        select: { id: true, chain: true, address: true },
      });
      if (!wallet) throw AppError.badRequest('walletId', 'is not one of your wallets');
      const id = randomUUID();
      const at = new Date(this.now());
      const taken = await tx.$queryRaw<{ id: bigint; type: RewardType; amountMicros: bigint; source: string }[]>`
        UPDATE "RewardEntry" SET "state" = 'claimed', "claimId" = ${id}, "claimedAt" = ${at}
        WHERE "userId" = ${userId} AND "state" = 'available' AND "type"::text IN (${Prisma.join(CLAIMABLE_TYPES)})
        RETURNING "id", "type"::text AS "type", "amountMicros", "source"`;
      if (taken.length === 0) throw new AppError('bad_request', 'nothing to claim: no rewards are available');
      const amountMicros = taken.reduce((s, r) => s + r.amountMicros, 0n);
      const reference = `reward_claim:${id}`;
      await tx.rewardClaim.create({
        data: {
          id,
          userId,
          walletId: wallet.id,
          chain: wallet.chain,
          address: wallet.address,
          amountMicros,
          entries: taken.length,
          createdAt: at,
        },
      });
      await tx.rewardEvent.createMany({
        data: trailOf(
          'claimed',
          taken.map((r) => ({ ...r, userId })),
          id,
        ),
      });
      await this.ledger.post(tx, {
        userId,
        kind: REWARD_CLAIM_KIND,
        available: amountMicros,
        held: 0n,
        reference,
        idempotencyKey: reference,
      });
      made = {
        id,
        walletId: wallet.id,
        chain: wallet.chain,
        address: wallet.address,
        amount: microsToNumber(amountMicros),
        currency: 'USD',
        entries: taken.length,
        ledgerReference: reference,
        createdAt: at,
      };
      return made;
    });
    // A replayed answer was notified when it was made.
    if (made) {
      await this.notify([
        {
          userId,
          kind: 'reward',
          title: 'Rewards claimed',
          body: `$${made.amount} credited to your balance`,
          data: { event: 'claimed', claimId: made.id, walletId: made.walletId, usd: String(made.amount) },
        },
      ]);
    }
    return answer;
  }
}
