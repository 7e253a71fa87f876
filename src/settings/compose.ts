import { z } from 'zod';
import { MIN_SECRET_BYTES, settingDocs, type SettingDoc } from './setting';
import type { SettingsContext, SettingsOf, SettingsSlice } from './slice';

/** Raised when the environment is invalid; the message lists every problem. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

// Any slice, whatever its variables and settings (its functions take its own values).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySlice = SettingsSlice<any, object>;

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The configuration the slices make together: each slice's settings, and the development defaults in use. */
export type ConfigOf<L extends readonly AnySlice[]> = UnionToIntersection<SettingsOf<L[number]>> & {
  /** Names of secrets that fell back to development defaults (warned about at start). */
  devDefaults: string[];
};

/** Every variable of the composition with its slice and documentation, in slice order. */
export interface ComposedVariable {
  readonly name: string;
  readonly slice: { readonly name: string; readonly title: string };
  readonly schema: z.ZodType;
  readonly doc: SettingDoc;
}

/** The slices composed: one schema of every variable, and the loader of the configuration. */
export interface ComposedSettings<L extends readonly AnySlice[]> {
  readonly slices: L;
  readonly variables: readonly ComposedVariable[];
  /** Every variable of every slice. */
  readonly schema: z.ZodObject;
  /**
   * Parses `source` (every problem reported at once, as `NAME: problem`), runs each slice's check
   * and mapping, and returns the configuration; `production` says from the parsed values whether
   * the production rules apply.
   */
  load(
    source: Readonly<Record<string, string | undefined>>,
    production: (values: Record<string, unknown>) => boolean,
  ): ConfigOf<L>;
}

/** A slice as the composition runs it: its values are only known to be values. */
interface RuntimeSlice {
  readonly name: string;
  readonly title: string;
  readonly variables: { readonly shape: Readonly<Record<string, z.ZodType>> };
  readonly check?: (values: Record<string, unknown>, ctx: SettingsContext) => void;
  readonly map: (values: Record<string, unknown>, ctx: SettingsContext) => object;
}

/** A plain object of settings (not a list, a Buffer or a value). */
function isGroup(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
}

/**
 * Composes settings slices. Each top-level key of the configuration is one slice's, except a
 * group (a plain object) that several slices fill, each with keys of its own. A variable declared
 * by two slices, two slices of one name, or a variable without documentation (not made by a
 * `setting` builder) is a programming error: it throws, and the process does not start.
 */
export function composeSettings<const L extends readonly AnySlice[]>(list: L): ComposedSettings<L> {
  const slices = list as unknown as readonly RuntimeSlice[];
  const owners = new Map<string, RuntimeSlice>();
  const names = new Set<string>();
  const variables: ComposedVariable[] = [];
  for (const slice of slices) {
    if (names.has(slice.name)) throw new Error(`settings: two slices are named "${slice.name}"`);
    names.add(slice.name);
    for (const [name, schema] of Object.entries(slice.variables.shape)) {
      const other = owners.get(name);
      if (other) throw new Error(`settings: ${name} is declared by both slices "${other.name}" and "${slice.name}"`);
      const twin = variables.find((v) => v.schema === schema);
      if (twin) throw new Error(`settings: ${name} and ${twin.name} share one schema: build each with setting.*`);
      const doc = settingDocs.get(schema);
      if (!doc)
        throw new Error(`settings: ${name} (slice "${slice.name}") has no documentation: declare it with setting.*`);
      owners.set(name, slice);
      variables.push({ name, slice, schema, doc });
    }
  }
  const shape: Record<string, z.ZodType> = {};
  for (const slice of slices) Object.assign(shape, slice.variables.shape);
  const schema = z.object(shape);
  const secrets = variables.filter((v) => v.doc.sharedSecret).map((v) => v.name);

  function load(
    source: Readonly<Record<string, string | undefined>>,
    production: (values: Record<string, unknown>) => boolean,
  ): ConfigOf<L> {
    const parsed = schema.safeParse(source);
    if (!parsed.success) {
      throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`));
    }
    const values = parsed.data as Record<string, unknown>;
    const problems: string[] = [];
    const devDefaults: string[] = [];
    const inProduction = production(values);
    // Plain functions: slices pass them on (`trustProxyOf(v, ctx.problem)`).
    const ctx: SettingsContext = {
      production: inProduction,
      problem: (message) => void problems.push(message),
      orDevelopment: (name, value, development) => {
        if (value !== undefined) return value;
        if (inProduction) problems.push(`${name}: required when NODE_ENV=production`);
        devDefaults.push(name);
        return development;
      },
    };
    if (inProduction) {
      for (const name of secrets) {
        const v = values[name];
        if (typeof v === 'string' && Buffer.byteLength(v) < MIN_SECRET_BYTES) {
          problems.push(`${name}: must be at least ${MIN_SECRET_BYTES} bytes when NODE_ENV=production`);
        }
      }
    }
    const config: Record<string, unknown> = {};
    // Each group is copied before another slice adds to it, so no slice's own object is changed.
    const copied = new Set<string>();
    const keyOwners = new Map<string, string>([['devDefaults', 'the composition']]);
    for (const slice of slices) {
      const own = Object.fromEntries(Object.keys(slice.variables.shape).map((name) => [name, values[name]]));
      slice.check?.(own, ctx);
      for (const [key, value] of Object.entries(slice.map(own, ctx))) {
        const other = keyOwners.get(key);
        if (other === undefined) {
          keyOwners.set(key, slice.name);
          config[key] = value;
          continue;
        }
        // Several slices may fill one group (`limits`, `upstreams`), each with keys of its own.
        if (!copied.has(key) && isGroup(config[key])) {
          config[key] = { ...config[key] };
          copied.add(key);
        }
        const group = config[key];
        if (!isGroup(group) || !isGroup(value)) {
          throw new Error(`settings: config.${key} is set by both slices "${other}" and "${slice.name}"`);
        }
        for (const [inner, innerValue] of Object.entries(value)) {
          const path = `${key}.${inner}`;
          const innerOther = keyOwners.get(path) ?? (inner in group ? other : undefined);
          if (innerOther) {
            throw new Error(`settings: config.${path} is set by both slices "${innerOther}" and "${slice.name}"`);
          }
          keyOwners.set(path, slice.name);
          group[inner] = innerValue;
        }
      }
    }
    if (problems.length > 0) throw new ConfigError(problems);
    return { ...config, devDefaults } as ConfigOf<L>;
  }

  return { slices: list, variables, schema, load };
}
