import { defineSettings, prose, setting } from '../../settings';

/** Paper trading: the balance a paper account starts with. */
export const paperSettings = defineSettings({
  name: 'paper',
  title: 'Paper trading',
  variables: {
    PAPER_STARTING_BALANCE_USD: setting.integer(
      0,
      1_000_000_000,
      10_000,
      prose`what a paper account starts with and what a reset puts back (paper dollars: simulated orders trade only
        with these)`,
    ),
  },
  map: (v) => ({
    /** Paper trading: the balance a paper account starts with (and a reset puts back), USD. */
    paper: { startingBalanceUsd: v.PAPER_STARTING_BALANCE_USD },
  }),
});
