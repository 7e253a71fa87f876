import { Field, Int, ObjectType } from 'type-graphql';
import type { SyncReport } from './catalog.service';

@ObjectType('CatalogSyncReport')
export class CatalogSyncReportType implements SyncReport {
  @Field(() => Int)
  events: number;
  @Field(() => Int)
  markets: number;
}
