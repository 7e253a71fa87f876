/**
 * Settings slices: how a module (or a platform part) declares the environment variables it reads,
 * and how src/config.ts composes them (docs/configuration.md#how-settings-are-declared).
 */
export {
  DEVELOPMENT_SECRET,
  MIN_SECRET_BYTES,
  prose,
  setting,
  settingDocs,
  optionalString,
  type SettingDoc,
} from './setting';
export {
  defineSettings,
  type SettingsContext,
  type SettingsOf,
  type SettingsShape,
  type SettingsSlice,
  type SettingsValues,
} from './slice';
export { ConfigError, composeSettings, type ComposedSettings, type ComposedVariable, type ConfigOf } from './compose';
export { renderConfigurationDoc, renderEnvExample } from './render';
