/**
 * What `firebase deploy` reads of each exported function: its endpoint (firebase-functions'
 * `__endpoint`), from the entry file as this process's environment makes it.
 */
export async function deployedEndpoints(): Promise<Record<string, Record<string, unknown>>> {
  const entry = (await import('../../functions/src/index.ts')) as unknown as Record<
    string,
    { __endpoint?: Record<string, unknown> } | undefined
  >;
  return Object.fromEntries(
    Object.entries(entry).flatMap(([name, exported]) => (exported?.__endpoint ? [[name, exported.__endpoint]] : [])),
  );
}
