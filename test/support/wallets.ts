/** A polygon wallet address of one repeated hex character (`wallet('a')` is `0xaaaa…a`): readable, sorts by it. */
export function wallet(char: string): string {
  return `0x${char.repeat(40)}`;
}

/** {@link wallet} for each character, as a tuple to destructure: `const [A, B] = wallets('a', 'b')`. */
export function wallets<const T extends readonly string[]>(...chars: T): { [K in keyof T]: string } {
  return chars.map(wallet) as { [K in keyof T]: string };
}
