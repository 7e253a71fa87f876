import { IsOptional, Max, MaxLength, Min, MinLength } from 'class-validator';
import { ArgsType, Field, Int } from 'type-graphql';
import { REWARDS_LIMITS as L } from './rewards.limits';

@ArgsType()
export class RewardsPageArgs {
  @Field(() => Int, { defaultValue: L.limit.default, description: `${L.limit.min}..${L.limit.max}` })
  @Min(L.limit.min)
  @Max(L.limit.max)
  limit: number;

  @Field(() => Int, { defaultValue: 0 })
  @Min(L.offset.min)
  @Max(L.offset.max)
  offset: number;
}

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

@ArgsType()
export class RewardsWindowArgs {
  @Field(() => Date, { nullable: true, description: `Start of the window of fee times (inclusive); default \`to\` minus ${L.window.defaultDays} days.` })
  @IsOptional()
  from?: Date;

  @Field(() => Date, { nullable: true, description: `End (exclusive); default now. At most ${L.window.maxDays} days after \`from\`.` })
  @IsOptional()
  to?: Date;
}

@ArgsType()
export class ReplayRewardsArgs {
  @Field({ description: 'Start of the window of fee times (inclusive).' })
  from: Date;

  @Field({ description: `End (exclusive); at most ${L.window.maxDays} days after \`from\`.` })
  to: Date;
}
