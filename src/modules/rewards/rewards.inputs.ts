import { IsOptional, MaxLength, MinLength, ValidateBy } from 'class-validator';
import { ArgsType, Field } from 'type-graphql';
import { z } from 'zod';
import { OffsetPagingArgs } from '../../graphql/paging';
import { REWARDS_LIMITS as L } from './rewards.limits';

@ArgsType()
export class RewardsPageArgs extends OffsetPagingArgs(L, { describe: ['limit'] }) {}

@ArgsType()
export class ApplyReferralArgs {
  @Field({ description: "Another user's referral code (any case; dashes and spaces are ignored)." })
  @MinLength(1)
  @MaxLength(L.code.inputMax)
  code: string;
}

@ArgsType()
export class ClaimRewardsArgs {
  @Field({ description: "One of the caller's wallets (GET /api/wallets)." })
  @MinLength(1)
  @MaxLength(100)
  walletId: string;
}

/** The REST rule (`z.iso.datetime({ offset: true })`): a date, a time and `Z` or an offset. */
const ISO_DATE_TIME = z.iso.datetime({ offset: true });
const ISO_MESSAGE = 'must be an ISO 8601 date-time';

function isIsoDateTime(value: unknown): boolean {
  return (
    typeof value === 'string' && ISO_DATE_TIME.safeParse(value).success && !Number.isNaN(new Date(value).getTime())
  );
}

/**
 * An instant given as ISO 8601 text. Parsed here rather than by a date scalar so
 * that a bad value is a 400 naming the argument (`from: must be …`), as on REST.
 */
function IsIsoDateTime(): PropertyDecorator {
  return ValidateBy({
    name: 'isIsoDateTime',
    validator: { validate: isIsoDateTime, defaultMessage: () => ISO_MESSAGE },
  });
}

/** The instant of a validated argument (undefined stays undefined). */
export function instant(value: string): Date;
export function instant(value: string | undefined): Date | undefined;
export function instant(value: string | undefined): Date | undefined {
  return value === undefined ? undefined : new Date(value);
}

@ArgsType()
export class RewardsWindowArgs {
  @Field(() => String, {
    nullable: true,
    description:
      `Start of the window of fee times (inclusive), ISO 8601; default \`to\` minus ` + `${L.window.defaultDays} days.`,
  })
  @IsOptional()
  @IsIsoDateTime()
  from?: string;

  @Field(() => String, {
    nullable: true,
    description: `End (exclusive), ISO 8601; default now. At most ${L.window.maxDays} days after \`from\`.`,
  })
  @IsOptional()
  @IsIsoDateTime()
  to?: string;
}

@ArgsType()
export class ReplayRewardsArgs {
  @Field({ description: 'Start of the window of fee times (inclusive), ISO 8601.' })
  @IsIsoDateTime()
  from: string;

  @Field({ description: `End (exclusive), ISO 8601; at most ${L.window.maxDays} days after \`from\`.` })
  @IsIsoDateTime()
  to: string;
}
