import { signToken } from '../auth/token-signer';
import { loadConfig } from '../config';
import { parseArgs, runCli } from './cli-args';

// npm run -s token -- --sub USER_ID [--wallet] [--ttl SECONDS]
// Prints a signed bearer JWT (a wallet-auth token with --wallet) on one line.
runCli(async () => {
  const args = parseArgs(process.argv.slice(2));
  const sub = args.get('sub');
  if (typeof sub !== 'string' || sub.length === 0)
    throw new Error('usage: token --sub USER_ID [--wallet] [--ttl SECONDS]');
  const ttl = args.get('ttl');
  const ttlSeconds = typeof ttl === 'string' ? Number(ttl) : 3600;
  if (!Number.isInteger(ttlSeconds) || ttlSeconds <= 0) throw new Error('--ttl must be a positive integer');
  const config = loadConfig();
  const wallet = args.get('wallet') === true;
  const token = await signToken(wallet ? config.auth.wallet : config.auth.user, sub, { ttlSeconds });
  process.stdout.write(`${token}\n`);
});
