import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, SETTINGS } from '../../../src/config';
import { MODULES } from '../../../src/modules/registry';
import {
  composeSettings,
  ConfigError,
  defineSettings,
  renderConfigurationDoc,
  renderEnvExample,
  setting,
} from '../../../src/settings';

const ROOT = path.resolve(__dirname, '../../..');
const onDisk = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');

describe('settings slices', () => {
  it('documents every variable: meaning, default and example line', () => {
    expect(SETTINGS.variables.length).toBeGreaterThan(150);
    for (const { name, doc } of SETTINGS.variables) {
      expect({ name, meaning: doc.meaning.trim() !== '' }).toEqual({ name, meaning: true });
      expect({ name, default: doc.default.trim() !== '' }).toEqual({ name, default: true });
      expect(doc.meaning).not.toMatch(/\n/);
    }
  });

  it('refuses each variable’s documented bad value, naming the variable', () => {
    const refusing = SETTINGS.variables.filter((v) => v.doc.invalid !== undefined);
    expect(refusing.length).toBeGreaterThan(100);
    for (const { name, doc } of refusing) {
      expect(() => loadConfig({ [name]: doc.invalid })).toThrow(new RegExp(`\\b${name}: `));
    }
  });

  it('keeps .env.example and the tables of docs/configuration.md as the slices render them', () => {
    expect(onDisk('.env.example')).toBe(renderEnvExample(SETTINGS));
    const doc = onDisk('docs/configuration.md');
    expect(doc).toBe(renderConfigurationDoc(SETTINGS, doc));
    for (const { name } of SETTINGS.variables) {
      expect(onDisk('.env.example')).toContain(`# ${name}=`);
      expect(doc).toContain(`| \`${name}\` |`);
    }
  });

  it('composes every settings slice a module manifest names', () => {
    const composed = new Set<unknown>(SETTINGS.slices);
    const named = MODULES.flatMap((m) => (m.settings ? [m.settings] : []));
    expect(named.length).toBeGreaterThan(10);
    for (const slice of named)
      expect({ slice: slice.name, composed: composed.has(slice) }).toMatchObject({ composed: true });
  });

  it('reports every slice’s problems together', () => {
    let err: unknown;
    try {
      loadConfig({ REWARDS_CASHBACK_BPS: '10000', PROCESS_LEASE_MS: '300', CORS_ORIGINS: 'https://a.example/x' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^REWARDS_CASHBACK_BPS: /),
        expect.stringMatching(/^PROCESS_LEASE_MS: /),
        expect.stringMatching(/^CORS_ORIGINS: /),
      ]),
    );
  });
});

describe('composeSettings', () => {
  const slice = (name: string, variables: Record<string, ReturnType<typeof setting.integer>>, key = name) =>
    defineSettings({ name, title: name, variables, map: (v) => ({ limits: { [key]: v } }) });

  it('merges the groups several slices fill, each key its own', () => {
    const composed = composeSettings([
      slice('a', { A_LIMIT: setting.integer(1, 10, 2, 'a') }),
      slice('b', { B_LIMIT: setting.integer(1, 10, 3, 'b') }),
    ]);
    const config = composed.load({ B_LIMIT: '7' }, () => false);
    expect(config.limits).toEqual({ a: { A_LIMIT: 2 }, b: { B_LIMIT: 7 } });
    expect(config.devDefaults).toEqual([]);
  });

  it('refuses a key two slices set, a variable declared twice, and a variable without documentation', () => {
    const same = composeSettings([
      slice('a', { A_LIMIT: setting.integer(1, 10, 2, 'a') }, 'x'),
      slice('b', { B_LIMIT: setting.integer(1, 10, 3, 'b') }, 'x'),
    ]);
    expect(() => same.load({}, () => false)).toThrow(/config\.limits\.x is set by both slices "a" and "b"/);
    expect(() =>
      composeSettings([
        slice('a', { A_LIMIT: setting.integer(1, 10, 2, 'a') }),
        slice('b', { A_LIMIT: setting.integer(1, 10, 2, 'a') }),
      ]),
    ).toThrow(/A_LIMIT is declared by both slices "a" and "b"/);
    const undocumented = defineSettings({
      name: 'u',
      title: 'u',
      variables: { U: setting.integer(1, 10, 2, 'u').optional() },
      map: () => ({}),
    });
    expect(() => composeSettings([undocumented])).toThrow(/U \(slice "u"\) has no documentation/);
  });
});
