/**
 * The key ring that seals webhook credentials at rest: each subscription's signing secret and its
 * URL (a Slack incoming-webhook URL is itself a credential) are stored encrypted with AES-256-GCM
 * (node:crypto), so reading the bucket is not enough to forge deliveries or post to the channel.
 *
 * The ring comes from one secret, `WEBHOOK_SECRET_KEY` (Secret Manager in a deployment, see
 * config.ts): one or more 32-byte keys in base64, comma-separated. The first seals; every one
 * opens. Each sealed value names its key by an id derived from the key (the first 12 hex digits
 * of its SHA-256), so a key is rotated by putting the new one first and keeping the old one
 * after it until every credential was sealed again (webhook-store.ts does that as it reads them).
 *
 * The associated data binds a sealed value to its subscription and field: swapping two sealed
 * values in the bucket makes both fail to open rather than sign with the wrong secret.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** A value sealed with AES-256-GCM, as stored: the key's id, and the nonce, ciphertext and tag in base64url. */
export interface Sealed {
  kid: string;
  iv: string;
  data: string;
  tag: string;
}

/** The key ring is missing, malformed, or lacks the key a value was sealed with. */
export class WebhookKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookKeyError';
  }
}

const keyBytes = 32;
const ivBytes = 12;
/** 32 bytes in base64: 43 characters and one `=` of padding (which may be left out). */
const base64Key = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=?$/;

const keyId = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 12);
const context = (subscription: string, field: string) => Buffer.from(`evident-webhook\n${subscription}\n${field}`);

export function isSealed(value: unknown): value is Sealed {
  return typeof value === 'object' && value !== null && typeof (value as Sealed).kid === 'string';
}

export class WebhookKeys {
  readonly #keys: Map<string, Buffer>;
  /** The id of the key that seals. */
  readonly currentKid: string;

  private constructor(keys: Buffer[]) {
    this.#keys = new Map(keys.map((key) => [keyId(key), key]));
    this.currentKid = keyId(keys[0]!);
  }

  /** The ring from the secret's value: comma-separated base64 keys of 32 bytes, the sealing one first. */
  static parse(value: string): WebhookKeys {
    const entries = value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    if (entries.length === 0) {
      throw new WebhookKeyError('WEBHOOK_SECRET_KEY is not set: webhook credentials cannot be sealed or opened.');
    }
    const keys = entries.map((entry, index) => {
      // The value itself is never in the message: it is a secret.
      if (!base64Key.test(entry)) {
        throw new WebhookKeyError(`WEBHOOK_SECRET_KEY: key ${index + 1} is not ${keyBytes} bytes in base64.`);
      }
      return Buffer.from(entry, 'base64');
    });
    return new WebhookKeys(keys);
  }

  /** A new random key, in the form the secret holds: for local runs and tests. */
  static generate(): string {
    return randomBytes(keyBytes).toString('base64');
  }

  /** Seals a subscription's `field` with the current key, under a fresh nonce. */
  seal(plain: string, subscription: string, field: string): Sealed {
    const iv = randomBytes(ivBytes);
    const cipher = createCipheriv('aes-256-gcm', this.#keys.get(this.currentKid)!, iv);
    cipher.setAAD(context(subscription, field));
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return {
      kid: this.currentKid,
      iv: iv.toString('base64url'),
      data: data.toString('base64url'),
      tag: cipher.getAuthTag().toString('base64url'),
    };
  }

  /** Opens what `seal` sealed for this subscription and field; throws if the key is unknown or anything was altered. */
  open(sealed: Sealed, subscription: string, field: string): string {
    const key = this.#keys.get(sealed.kid);
    if (!key) throw new WebhookKeyError(`WEBHOOK_SECRET_KEY has no key with id ${sealed.kid}, which sealed this credential.`);
    // A tag of the full 16 bytes only: GCM would otherwise check a stored tag cut to 4 bytes.
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64url'), { authTagLength: 16 });
    decipher.setAAD(context(subscription, field));
    try {
      decipher.setAuthTag(Buffer.from(sealed.tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new WebhookKeyError(`A sealed ${field} of ${subscription} does not open: it was altered, or sealed for another.`);
    }
  }
}

/**
 * The key ring read from the secret's value on first use and then kept; read again after a
 * failure, so a missing key fails each use that needs it, with its reason, and nothing else.
 */
export function keyRingFrom(value: () => string): () => WebhookKeys {
  let ring: WebhookKeys | undefined;
  return () => (ring ??= WebhookKeys.parse(value()));
}
