/** The entry point of `verify/verify.mjs` (the bundle of verify-folder.ts): runs the command on the process's arguments. */
import { verifyFolderCommand } from './verify-folder.js';

const { lines, code } = verifyFolderCommand(process.argv.slice(2));
for (const line of lines) console.log(line);
process.exitCode = code;
