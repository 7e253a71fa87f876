import { Field, Float, Int, ObjectType } from 'type-graphql';

@ObjectType('PaperAccount', {
  description: 'The paper account simulated orders trade against: never withdrawable, never earning rewards.',
})
export class PaperAccountType {
  @Field(() => String, { description: 'Paper US dollars.' })
  currency!: 'USD';

  @Field(() => Float)
  available!: number;

  @Field(() => Float, { description: 'What the account starts with, and what a reset puts back.' })
  startingBalance!: number;

  @Field(() => Int)
  openPositions!: number;
}
