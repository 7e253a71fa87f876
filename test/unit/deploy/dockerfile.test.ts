import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkDockerfile, parseDockerfile, startFlags } from '../../../scripts/check-dockerfile';

const DOCKERFILE = readFileSync(path.resolve(__dirname, '../../../Dockerfile'), 'utf8');

describe("the Dockerfile's shape (CI runs its commands: scripts/check-dockerfile.ts)", () => {
  it("is multi-stage, and CI's plan is its install, its build and its CMD", () => {
    expect(parseDockerfile(DOCKERFILE).map((s) => s.name)).toEqual(['deps', 'build', 'runtime']);
    const { errors, plan } = checkDockerfile(DOCKERFILE);
    expect(errors).toEqual([]);
    expect(plan.installs).toEqual(['npm ci --omit=dev --no-audit --no-fund', 'npm ci --no-audit --no-fund']);
    expect(plan.builds).toEqual(['npm run build']);
    expect(plan.cmd).toEqual(['node', ...startFlags(), 'dist/main.js']);
    expect(startFlags()).toEqual(['--max-semi-space-size=8', '--liftoff-only']);
    expect(plan.env).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0' });
  });

  it.each([
    ['a RUN CI does not run', (d: string) => d.replace('RUN npm run build', 'RUN npm run build\nRUN npm test')],
    ['root at run time', (d: string) => d.replace('USER node', 'USER root')],
    ['no user at all', (d: string) => d.replace('USER node', '')],
    [
      'a curl health check',
      (d: string) => d.replace(/CMD \["node", "-e".*\n/, 'CMD curl -f http://127.0.0.1:4000/health\n'),
    ],
    ['another command', (d: string) => d.replace(/^CMD \[.*\]$/m, 'CMD ["npm", "start"]')],
    ["flags other than npm start's", (d: string) => d.replace(/^CMD \[.*\]$/m, 'CMD ["node", "dist/main.js"]')],
    ['loopback only', (d: string) => d.replace('HOST=0.0.0.0', 'HOST=127.0.0.1')],
  ])('refuses %s', (_what, change) => {
    const changed = change(DOCKERFILE);
    expect(changed).not.toBe(DOCKERFILE);
    expect(checkDockerfile(changed).errors).toHaveLength(1);
  });
});
