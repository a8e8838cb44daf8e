/**
 * The verifier's arguments, the same for `verify/verify.mjs` (an unpacked folder) and
 * `npm run verify-audit` (a zip): in a module of its own, free of the engine, so the zip's
 * reading can start before the engine is loaded.
 */

/** `<folder or zip> [--key <file>]`, in either order. */
export function argumentsOf(args: readonly string[]): { folder?: string; keyFile?: string } {
  const keyAt = args.indexOf('--key');
  const keyFile = keyAt >= 0 ? args[keyAt + 1] : undefined;
  const folder = args.find((arg, n) => !arg.startsWith('--') && (keyAt < 0 || n !== keyAt + 1));
  return { ...(folder === undefined ? {} : { folder }), ...(keyFile === undefined ? {} : { keyFile }) };
}
