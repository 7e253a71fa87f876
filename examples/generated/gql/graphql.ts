/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** `simulation` fills against the venue book inside the service, in the paper account; `live` trades at the venue (wallet-auth token). */
export type ExecutionMode =
  | 'live'
  | 'simulation';

export type Outcome =
  | 'no'
  | 'yes';

export type TradeSide =
  | 'buy'
  | 'sell';

/** A trading venue. */
export type Venue =
  | 'venue_a'
  | 'venue_b';

export type PortfolioScreenQueryVariables = Exact<{
  mode?: ExecutionMode | null | undefined;
  activityLimit?: number | null | undefined;
}>;


export type PortfolioScreenQuery = { portfolio: { mode: ExecutionMode, asOf: string, balances: { currency: string, available: number, held: number, positionsValue: number, equity: number }, summary: { openPositions: number, marketValue: number, unrealizedPnl: number, realizedPnl: number, totalPnl: number }, positions: { total: number, data: Array<{ id: string, venue: Venue, marketId: string, outcome: Outcome, size: number, avgPrice: number | null, marketValue: number | null, unrealizedPnl: number | null, market: { title: string } | null }> }, recentActivity: Array<{ id: string, side: TradeSide, outcome: Outcome, price: number, size: number, marketTitle: string | null }> } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}

export const PortfolioScreenDocument = new TypedDocumentString(`
    query PortfolioScreen($mode: ExecutionMode, $activityLimit: Int) {
  portfolio(mode: $mode) {
    mode
    asOf
    balances {
      currency
      available
      held
      positionsValue
      equity
    }
    summary {
      openPositions
      marketValue
      unrealizedPnl
      realizedPnl
      totalPnl
    }
    positions {
      total
      data {
        id
        venue
        marketId
        outcome
        size
        avgPrice
        marketValue
        unrealizedPnl
        market {
          title
        }
      }
    }
    recentActivity(limit: $activityLimit) {
      id
      side
      outcome
      price
      size
      marketTitle
    }
  }
}
    `) as unknown as TypedDocumentString<PortfolioScreenQuery, PortfolioScreenQueryVariables>;