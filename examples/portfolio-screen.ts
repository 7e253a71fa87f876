/**
 * A typed GraphQL client for the portfolio screen: the document below is typed by GraphQL Code
 * Generator's client preset (`examples/generated/gql/`, rewritten by `npm run codegen`), so the
 * variables and the result are checked by the compiler, and plain `fetch` sends it.
 *
 *   node -r ./scripts/register.js examples/portfolio-screen.ts BEARER_TOKEN [BASE_URL]
 *   (a token for the demo server: npm run -s token -- --sub demo-user)
 */
import { graphql } from './generated/gql';
import type { TypedDocumentString } from './generated/gql/graphql';

export const PortfolioScreenQuery = graphql(`
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
`);

/** A GraphQL error as the API sends it: `extensions.code` is one of the error body's codes. */
interface GraphqlError {
  message: string;
  extensions?: { code?: string };
}

/**
 * Runs a typed document against `/graphql`. `Content-Type: application/json` is what Apollo's
 * CSRF prevention asks of a browser-sendable request.
 */
export async function execute<TResult, TVariables>(
  baseUrl: string,
  document: TypedDocumentString<TResult, TVariables>,
  variables: TVariables,
  token?: string,
): Promise<TResult> {
  const res = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({ query: document.toString(), variables }),
  });
  const body = (await res.json()) as { data?: TResult | null; errors?: GraphqlError[] };
  if (body.errors?.length || body.data == null) {
    const first = body.errors?.[0];
    throw new Error(`GraphQL ${first?.extensions?.code ?? res.status}: ${first?.message ?? 'no data'}`);
  }
  return body.data;
}

/** The signed-in user's portfolio screen, simulated (paper) account by default. */
export function portfolioScreen(baseUrl: string, token: string, mode: 'live' | 'simulation' = 'simulation') {
  return execute(baseUrl, PortfolioScreenQuery, { mode, activityLimit: 5 }, token);
}

if (require.main === module) {
  const [token, baseUrl = 'http://127.0.0.1:4000'] = process.argv.slice(2);
  if (token === undefined) {
    process.stderr.write('usage: portfolio-screen.ts BEARER_TOKEN [BASE_URL]\n');
    process.exit(2);
  }
  portfolioScreen(baseUrl, token).then(
    ({ portfolio }) => {
      const { balances, summary } = portfolio;
      process.stdout.write(
        `${portfolio.mode}: equity ${balances.equity} ${balances.currency}, ` +
          `${summary.openPositions} open positions, total P&L ${summary.totalPnl}\n`,
      );
    },
    (err: unknown) => {
      process.stderr.write(`${String(err)}\n`);
      process.exit(1);
    },
  );
}
