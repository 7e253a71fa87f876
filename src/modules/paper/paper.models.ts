/** The caller's paper account, as JSON. */
export interface PaperAccountView {
  /** Paper dollars: never withdrawable, never mixed with the USD balance. */
  currency: 'USD';
  available: number;
  /** What the account starts with, and what a reset puts back. */
  startingBalance: number;
  /** Paper positions still open. */
  openPositions: number;
}
