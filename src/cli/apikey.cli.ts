import 'reflect-metadata';
import { loadConfig } from '../config';
import { openDatabase } from '../db';
import {
  API_KEY_LIMITS,
  API_PLANS,
  API_SCOPES,
  type ApiPlan,
  type ApiScope,
} from '../modules/api-keys/api-keys.limits';
import { createApiKey } from '../modules/api-keys/api-keys.service';
import { readRuntimeFile } from '../runtime-file';
import { parseArgs, runCli } from './cli-args';

const USAGE = 'usage: apikey --owner OWNER --name NAME --scopes read,write [--plan free|pro|enterprise]';

const ISSUE = `mutation Issue($owner: String!, $name: String!, $scopes: [ApiScope!]!, $plan: ApiPlan!) {
  issueApiKey(owner: $owner, name: $name, scopes: $scopes, plan: $plan) { id key keyPreview scopes plan createdAt }
}`;

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
// otherwise the CLI opens the database itself.
runCli(async () => {
  const req = parseRequest(process.argv.slice(2));
  const config = loadConfig();
  const running = config.databaseUrl === undefined ? readRuntimeFile(config.dataDir) : null;
  if (running) {
    const res = await fetch(`${running.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': config.tokens.admin },
      body: JSON.stringify({ query: ISSUE, variables: req }),
    });
    const body = (await res.json()) as {
      data?: {
        issueApiKey: { id: string; key: string; keyPreview: string; scopes: string[]; plan: string; createdAt: string };
      };
      errors?: { message: string }[];
    };
    if (!body.data) throw new Error(`the running server refused: ${body.errors?.[0]?.message ?? res.status}`);
    const k = body.data.issueApiKey;
    const out = {
      via: 'server',
      id: k.id,
      key: k.key,
      key_preview: k.keyPreview,
      owner: req.owner,
      name: req.name,
      scopes: k.scopes,
      plan: k.plan,
      created_at: k.createdAt,
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
    return;
  }
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : config.dataDir,
  });
  try {
    const k = await createApiKey(db.prisma, req);
    const out = {
      via: 'database',
      id: k.id,
      key: k.key,
      key_preview: k.keyPreview,
      owner: req.owner,
      name: k.name,
      scopes: k.scopes,
      plan: k.plan,
      created_at: k.createdAt.toISOString(),
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  } finally {
    await db.close();
  }
});
