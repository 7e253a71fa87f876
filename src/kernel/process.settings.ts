import { defineSettings, setting } from '../settings';

/** The process itself: the environment it runs as (production rules or not) and how much it logs. */
export const processSettings = defineSettings({
  name: 'process',
  title: 'Process',
  variables: {
    NODE_ENV: setting.choice(
      ['development', 'production', 'test'],
      'development',
      '`production` refuses development defaults for secrets',
    ),
    LOG_LEVEL: setting.choice(
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      'info',
      'log level (JSON lines)',
    ),
  },
  map: (v) => ({ env: v.NODE_ENV, logLevel: v.LOG_LEVEL }),
});
