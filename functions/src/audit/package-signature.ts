/**
 * The audit package's signature: Ed25519 over the bytes of `manifest.json`, which holds every
 * other file's SHA-256, kept raw (64 bytes) in `manifest.sig` so `openssl pkeyutl -verify -rawin`
 * checks it as well as the verifier. A key's fingerprint is the SHA-256 of its public key's DER
 * (SubjectPublicKeyInfo), as `openssl pkey -pubin -outform DER | sha256sum` prints it.
 * Only node:crypto: the verifier inside the package uses it too.
 */
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

export const signatureAlgorithm = 'Ed25519';

/** A public key as packages and the signing-key endpoint publish it. */
export interface PublishedKey {
  algorithm: typeof signatureAlgorithm;
  /** SPKI PEM. */
  publicKey: string;
  fingerprint: string;
}

export class SigningKeyInvalid extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SigningKeyInvalid';
  }
}

/**
 * The private key in a secret's text: a PKCS#8 PEM, or its DER in base64 on one line (what a
 * dotenv-style secrets file holds). Anything but an Ed25519 key is refused.
 */
export function signingKeyFrom(text: string): KeyObject {
  let key: KeyObject;
  try {
    const trimmed = text.trim();
    key = trimmed.includes('-----BEGIN')
      ? createPrivateKey(trimmed)
      : createPrivateKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'pkcs8' });
  } catch (error) {
    throw new SigningKeyInvalid(`the audit signing key is not a private key: ${(error as Error).message}`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new SigningKeyInvalid('the audit signing key is not an Ed25519 key');
  return key;
}

/** A public key (or the public half of a private one) as published. */
export function publishedKeyOf(key: KeyObject | string): PublishedKey {
  const publicKey = createPublicKey(key);
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return {
    algorithm: signatureAlgorithm,
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    fingerprint: createHash('sha256').update(der).digest('hex'),
  };
}

export const signManifest = (manifest: Buffer, privateKey: KeyObject): Buffer => sign(null, manifest, privateKey);

export function signatureHolds(manifest: Buffer, signature: Buffer, publicKey: string): boolean {
  try {
    return verify(null, manifest, createPublicKey(publicKey), signature);
  } catch {
    return false;
  }
}
