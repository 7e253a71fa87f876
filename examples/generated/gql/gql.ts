/* eslint-disable */
import * as types from './graphql';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query PortfolioScreen($mode: ExecutionMode, $activityLimit: Int) {\n    portfolio(mode: $mode) {\n      mode\n      asOf\n      balances {\n        currency\n        available\n        held\n        positionsValue\n        equity\n      }\n      summary {\n        openPositions\n        marketValue\n        unrealizedPnl\n        realizedPnl\n        totalPnl\n      }\n      positions {\n        total\n        data {\n          id\n          venue\n          marketId\n          outcome\n          size\n          avgPrice\n          marketValue\n          unrealizedPnl\n          market {\n            title\n          }\n        }\n      }\n      recentActivity(limit: $activityLimit) {\n        id\n        side\n        outcome\n        price\n        size\n        marketTitle\n      }\n    }\n  }\n": typeof types.PortfolioScreenDocument,
};
const documents: Documents = {
    "\n  query PortfolioScreen($mode: ExecutionMode, $activityLimit: Int) {\n    portfolio(mode: $mode) {\n      mode\n      asOf\n      balances {\n        currency\n        available\n        held\n        positionsValue\n        equity\n      }\n      summary {\n        openPositions\n        marketValue\n        unrealizedPnl\n        realizedPnl\n        totalPnl\n      }\n      positions {\n        total\n        data {\n          id\n          venue\n          marketId\n          outcome\n          size\n          avgPrice\n          marketValue\n          unrealizedPnl\n          market {\n            title\n          }\n        }\n      }\n      recentActivity(limit: $activityLimit) {\n        id\n        side\n        outcome\n        price\n        size\n        marketTitle\n      }\n    }\n  }\n": types.PortfolioScreenDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PortfolioScreen($mode: ExecutionMode, $activityLimit: Int) {\n    portfolio(mode: $mode) {\n      mode\n      asOf\n      balances {\n        currency\n        available\n        held\n        positionsValue\n        equity\n      }\n      summary {\n        openPositions\n        marketValue\n        unrealizedPnl\n        realizedPnl\n        totalPnl\n      }\n      positions {\n        total\n        data {\n          id\n          venue\n          marketId\n          outcome\n          size\n          avgPrice\n          marketValue\n          unrealizedPnl\n          market {\n            title\n          }\n        }\n      }\n      recentActivity(limit: $activityLimit) {\n        id\n        side\n        outcome\n        price\n        size\n        marketTitle\n      }\n    }\n  }\n"): typeof import('./graphql').PortfolioScreenDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
