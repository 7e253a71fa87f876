import { ArrayMaxSize, ArrayMinSize, ArrayUnique, Matches, MaxLength, MinLength } from 'class-validator';
import { ArgsType, Field } from 'type-graphql';
import { ApiScope, type ApiPlan, API_KEY_LIMITS as L } from './api-keys.limits';
import { ApiPlanEnum, ApiScopeEnum } from './api-keys.types';

@ArgsType()
export class CreateApiKeyArgs {
  @Field({ description: `A descriptive name, ${L.name.min}..${L.name.max} characters.` })
  @MinLength(L.name.min)
  @MaxLength(L.name.max)
  name: string;

  @Field(() => [ApiScopeEnum], { description: '`read` and/or `write`.' })
  @ArrayMinSize(1)
  @ArrayMaxSize(2)
  @ArrayUnique()
  scopes: ApiScope[];
}

@ArgsType()
export class IssueApiKeyArgs extends CreateApiKeyArgs {
  @Field({ description: 'Who the key belongs to (usage is counted per owner).' })
  @Matches(/^\S(.*\S)?$/, { message: 'must not be blank or padded' })
  @MaxLength(L.owner.max)
  owner: string;

  @Field(() => ApiPlanEnum, { defaultValue: ApiPlanEnum.free })
  plan: ApiPlan;
}

@ArgsType()
export class RevokeApiKeyArgs {
  @Field()
  @MaxLength(L.keyId.max)
  keyId: string;
}
