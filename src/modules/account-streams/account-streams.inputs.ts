import { ArgsType, Field } from 'type-graphql';
import type { ExecutionMode } from '../execution/execution.limits';
import { ExecutionModeEnum } from '../portfolio/portfolio.types';

@ArgsType()
export class AccountUpdatesArgs {
  @Field(() => ExecutionModeEnum, {
    nullable: true,
    description: 'Only the `live` account, or only the paper (`simulation`) one; both when unset.',
  })
  mode?: ExecutionMode;
}
