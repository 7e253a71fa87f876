/** GraphQL passes explicit nulls for omitted filters; the services take absent ones. */
export function definedOnly<T extends object>(args: T): { [K in keyof T]: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null && v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], null>;
  };
}
