/**
 * What every OSCAL document Evident writes shares: deterministic (version 5) UUIDs, and values cut
 * to what OSCAL's types accept (tokens, one-line strings, UTC instants, non-empty arrays), with
 * Evident's own properties in its namespace.
 */
import { createHash } from 'node:crypto';

export const oscalVersion = '1.0.6';

/** Namespace of Evident's own OSCAL properties (`props[].ns` must be an absolute URI). */
export const evidentNamespace = 'https://evident.dev/ns/oscal';

export type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Deterministic UUIDs

/** RFC 4122's namespace for names that are URLs. */
const urlNamespace = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';

/**
 * An RFC 4122 version 5 UUID: SHA-1 of the namespace's 16 bytes followed by the name, cut to 16
 * bytes, with the version and variant bits set. OSCAL's UUID pattern accepts only versions 4 and 5.
 */
export function uuidV5(namespace: string, name: string): string {
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Evident's namespace for export UUIDs, itself derived from the property namespace URL. */
export const exportNamespace = uuidV5(urlNamespace, evidentNamespace);

// ---------------------------------------------------------------------------------------------
// Values OSCAL constrains more tightly than the report does

const tokenStart = /^(\p{L}|_)/u;
const tokenUnsafe = /[^\p{L}\p{N}._-]/gu;

/**
 * An OSCAL token (an XML NCName): lower case, with anything a token cannot hold replaced by `-` and
 * a leading `_` when it would otherwise not start with a letter. Evident ids (`IAM-01`, `ia-2.1`)
 * pass through lower-cased and otherwise unchanged.
 */
export function oscalToken(text: string): string {
  const cleaned = text.toLowerCase().replace(tokenUnsafe, '-');
  return tokenStart.test(cleaned) ? cleaned : `_${cleaned}`;
}

/**
 * OSCAL's `string` type forbids empty values and leading or trailing whitespace, and its pattern does
 * not match line breaks; free text from evidence (subjects, messages) is folded onto one line.
 */
export function oscalString(text: string): string | undefined {
  const folded = text.replace(/\s+/g, ' ').trim();
  return folded === '' ? undefined : folded;
}

const utcInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * OSCAL's date-time pattern is narrower than RFC 3339 (only real-world offsets, upper-case `Z`).
 * Evident writes instants in UTC with `Z`, which pass unchanged; anything else is rewritten in UTC.
 */
export function oscalInstant(text: string): string {
  return utcInstant.test(text) ? text : new Date(text).toISOString();
}

/** A reference to an evidence item as the API serves it (a relative reference, valid as uri-reference). */
export function evidenceHref(id: string): string {
  return `/api/evidence/${encodeURIComponent(id)}`;
}

/** An Evident property; none when the value would be empty. */
export function prop(name: string, value: string): Json[] {
  const text = oscalString(value);
  return text === undefined ? [] : [{ name, ns: evidentNamespace, value: text }];
}

/** OSCAL arrays must have at least one item, so an empty list is left out rather than written. */
export function nonEmpty<T>(key: string, items: T[]): Record<string, T[]> {
  return items.length > 0 ? { [key]: items } : {};
}

export function unique(items: string[]): string[] {
  return [...new Set(items)];
}

// ---------------------------------------------------------------------------------------------
// Owners as parties

/** The role a control's owner plays in the POA&M and the component definition. */
export const ownerRole = 'control-owner';

/** An owner's party: the same UUID in every document, so tools can follow one owner across them. */
export const partyUuid = (owner: string): string => uuidV5(exportNamespace, `party/${owner}`);

/** The metadata that names owners: the role, and a party per owner (a person when it is an address). */
export function ownerParties(owners: readonly string[]): Json {
  return {
    roles: [{ id: ownerRole, title: 'Control owner' }],
    parties: owners.map((owner) => ({
      uuid: partyUuid(owner),
      type: owner.includes('@') ? 'person' : 'organization',
      name: owner,
    })),
  };
}

/**
 * Evident's control catalog of one version as a back-matter resource: what the documents point
 * at where OSCAL wants a plan or a source, as the catalog is not itself an OSCAL document. The
 * same catalog is the same resource, so its UUID depends on the version only.
 */
export const catalogResourceUuid = (version: string): string => uuidV5(exportNamespace, `catalog/${version}`);

export function catalogResource(version: string, description: string): Json {
  return {
    uuid: catalogResourceUuid(version),
    title: `Evident control catalog ${version}`,
    description,
    props: prop('evident-catalog-version', version),
    rlinks: [{ href: '/api/controls', 'media-type': 'application/json' }],
  };
}
