/**
 * The process each connector's collection is measured in: Node as a 256 MiB instance runs it. V8
 * gives the old generation a quarter of an instance's memory (functions/src/index.ts says the
 * same of the daily job), and sizes the young generation from the machine unless told: on this
 * 24 GiB machine it grows it to 128 MiB, which no 256 MiB instance would. At a 64 MiB heap it
 * would instead scavenge so often that a collection costs ten times the CPU (measured on GitHub:
 * 60 s against 6 s), hence a semi-space of 8 MiB given too.
 */
export const instanceMiB = 256;

export const instanceExecArgv = [`--max-old-space-size=${instanceMiB / 4}`, '--max-semi-space-size=8'];
