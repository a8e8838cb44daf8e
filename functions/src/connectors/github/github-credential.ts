/**
 * The GitHub connector's one secret and how its value says which credential it is; shared by the
 * connector's metadata and its collector (which the metadata loads, so neither imports the other).
 */

/** The secret: a fine-grained personal access token, or a GitHub App's private key (PEM). */
export const credentialSecret = 'GITHUB_CREDENTIAL';

/** A GitHub App's private key, as GitHub gives it for download (PKCS#1) or converted (PKCS#8). */
export function isPrivateKey(credential: string): boolean {
  return /-----BEGIN (RSA )?PRIVATE KEY-----/.test(credential);
}
