import { z } from 'zod';

/** What a slice's check and mapping are given besides its own values. */
export interface SettingsContext {
  /** NODE_ENV=production: secrets have no development default, and the production rules apply. */
  readonly production: boolean;
  /** Reports a problem as `NAME: problem`; every slice's problems are reported together. */
  readonly problem: (message: string) => void;
  /**
   * A secret's value, or outside production the fixed development value (named at start, loudly);
   * with NODE_ENV=production an unset one is a problem (`NAME: required when NODE_ENV=production`).
   */
  readonly orDevelopment: (name: string, value: string | undefined, development: string) => string;
}

/** A slice's variables: environment variable names to the schemas `setting.*` builds. */
export type SettingsShape = Record<string, z.ZodType>;

/** The parsed values of a slice's variables. */
export type SettingsValues<S extends SettingsShape> = z.output<z.ZodObject<S>>;

/**
 * The settings one owner (a module, or a platform part: HTTP, database, auth…) reads: its
 * variables (a zod object, each variable with its documentation), the rules that tie several of
 * them together, and the typed settings it reads them as (`config.<key>…`).
 */
export interface SettingsSlice<S extends SettingsShape = SettingsShape, T extends object = object> {
  /** Names the slice: the docs' table marker (`<!-- settings: name -->`) and error messages. */
  readonly name: string;
  /** The heading of its variables in .env.example. */
  readonly title: string;
  readonly variables: z.ZodObject<S>;
  /** Rules across its variables: each problem through `ctx.problem`. */
  readonly check?: (values: SettingsValues<S>, ctx: SettingsContext) => void;
  /**
   * The typed settings, merged into the application's configuration: each top-level key one slice's, or a
   * group (`limits`, `upstreams`) whose keys are each one slice's.
   */
  readonly map: (values: SettingsValues<S>, ctx: SettingsContext) => T;
}

/**
 * A settings slice: `defineSettings({ name: 'rewards', title: 'Rewards', variables: { REWARDS_SETTLE_MS:
 * setting.integer(…) }, map: (v) => ({ rewards: { settleMs: v.REWARDS_SETTLE_MS } }) })`.
 */
export function defineSettings<S extends SettingsShape, T extends object>(slice: {
  name: string;
  title: string;
  variables: S;
  check?: (values: SettingsValues<S>, ctx: SettingsContext) => void;
  map: (values: SettingsValues<S>, ctx: SettingsContext) => T;
}): SettingsSlice<S, T> {
  return { ...slice, variables: z.object(slice.variables) };
}

/** The typed settings a slice adds to the configuration. */
export type SettingsOf<L> = L extends { map: (...args: never[]) => infer T } ? T : never;
