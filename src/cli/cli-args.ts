/** Minimal `--name value` / `--flag` parsing for the project's CLIs. */
export function parseArgs(argv: string[]): Map<string, string | true> {
  const out = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
    const [name, inline] = a.slice(2).split('=', 2) as [string, string | undefined];
    if (inline !== undefined) out.set(name, inline);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) out.set(name, argv[++i]);
    else out.set(name, true);
  }
  return out;
}

/** Runs a CLI body, printing a one-line error and exiting 1 on failure. */
export function runCli(body: () => Promise<void>): void {
  body().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
