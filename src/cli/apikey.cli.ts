import 'reflect-metadata';
import { loadConfig } from '../config';
import {
  API_KEY_LIMITS,
  API_PLANS,
  API_SCOPES,
  type ApiPlan,
  type ApiScope,
} from '../modules/api-keys/api-keys.limits';
import { createApiKey } from '../modules/api-keys/api-keys.service';
import { parseArgs, runCli } from './cli-args';
import { onServerOrDatabase } from './cli-backend';

const USAGE = 'usage: apikey --owner OWNER --name NAME --scopes read,write [--plan free|pro|enterprise]';

const ISSUE = `mutation Issue($owner: String!, $name: String!, $scopes: [ApiScope!]!, $plan: ApiPlan!) {
  issueApiKey(owner: $owner, name: $name, scopes: $scopes, plan: $plan) { id key keyPreview scopes plan createdAt }
}`;

/** What both ways of issuing a key answer and the CLI prints. */
interface IssuedKey {
  id: string;
  key: string;
  keyPreview: string;
  scopes: readonly string[];
  plan: string;
}

interface Request {
  owner: string;
  name: string;
  scopes: ApiScope[];
  plan: ApiPlan;
}

function parseRequest(argv: string[]): Request {
  const args = parseArgs(argv);
  const text = (name: string) => {
    const v = args.get(name);
    return typeof v === 'string' ? v.trim() : undefined;
  };
  const owner = text('owner');
  const name = text('name');
  const scopes = text('scopes')
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const plan = text('plan') ?? 'free';
  if (!owner || !name || !scopes || scopes.length === 0) throw new Error(USAGE);
  if (owner.length > API_KEY_LIMITS.owner.max)
    throw new Error(`--owner: at most ${API_KEY_LIMITS.owner.max} characters`);
  if (name.length > API_KEY_LIMITS.name.max) throw new Error(`--name: at most ${API_KEY_LIMITS.name.max} characters`);
  for (const s of scopes) {
    if (!(API_SCOPES as readonly string[]).includes(s))
      throw new Error(`--scopes: ${s} is not one of ${API_SCOPES.join(', ')}`);
  }
  if (!(API_PLANS as readonly string[]).includes(plan))
    throw new Error(`--plan: must be one of ${API_PLANS.join(', ')}`);
  return { owner, name, scopes: [...new Set(scopes)] as ApiScope[], plan: plan as ApiPlan };
}

// npm run -s apikey -- --owner OWNER --name NAME --scopes read,write [--plan free|pro|enterprise]
// Creates a market-data API key and prints one line of JSON with its id and key
// (the only time the key is shown). With the embedded database and a server
// running on it, the server creates the key (PGlite admits one process);
// otherwise the CLI opens the database itself (see cli-backend).
runCli(async () => {
  const req = parseRequest(process.argv.slice(2));
  const printed = (k: IssuedKey, name: string, createdAt: string) => ({
    id: k.id,
    key: k.key,
    key_preview: k.keyPreview,
    owner: req.owner,
    name,
    scopes: k.scopes,
    plan: k.plan,
    created_at: createdAt,
  });
  const config = loadConfig();
  const out = await onServerOrDatabase(config, {
    server: {
      query: ISSUE,
      variables: req,
      answer: ({ issueApiKey: k }: { issueApiKey: IssuedKey & { createdAt: string } }) =>
        printed(k, req.name, k.createdAt),
    },
    database: async (db) => {
      const k = await createApiKey(db.prisma, req, config.marketData.keysPerOwner);
      return printed(k, k.name, k.createdAt.toISOString());
    },
  });
  process.stdout.write(`${JSON.stringify(out)}\n`);
});
