/**
 * A `ListAssets` page read from its bytes, with the protos `@google-cloud/asset` ships: first its
 * next page token, so that the next call can go out before anything else is done with the page;
 * then its assets, each with what the connector reads and nothing more: its name and type, its
 * IAM policy, and of its resource's data (a google.protobuf.Struct) the top-level fields the
 * listing names. The rest (ancestors, update time, the resource's discovery fields and the bulk
 * of its data: a bucket's ACLs, owner and links) is stepped over, not decoded: decoding every
 * asset whole was most of the connector's CPU and garbage per page. What is kept is decoded by
 * the SDK's generated decoders (google.protobuf.Value, google.iam.v1.Policy), as the client's own.
 */
import { createRequire } from 'node:module';
import { protos } from '@google-cloud/asset';
import { protobufMinimal } from 'google-gax';

export type Asset = protos.google.cloud.asset.v1.IAsset;
type Reader = protobufMinimal.Reader;
type Value = protos.google.protobuf.IValue;

interface ProtoNamespace {
  nested?: Record<string, ProtoNamespace>;
  fields?: Record<string, { id: number }>;
}

/** The field numbers of the messages read here, as the SDK's protos.json gives them. */
const fields = (() => {
  const root = createRequire(import.meta.url)('@google-cloud/asset/build/protos/protos.json') as ProtoNamespace;
  const numbers = <Name extends string>(type: string, names: readonly Name[]) => {
    const message = type.split('.').reduce<ProtoNamespace | undefined>((namespace, name) => namespace?.nested?.[name], root);
    const idOf = (name: Name) => {
      const id = message?.fields?.[name]?.id;
      if (id === undefined) throw new Error(`${type}.${name} is not in the protos of @google-cloud/asset`);
      return [name, id] as const;
    };
    return Object.fromEntries(names.map(idOf)) as Record<Name, number>;
  };
  return {
    response: numbers('google.cloud.asset.v1.ListAssetsResponse', ['assets', 'nextPageToken']),
    asset: numbers('google.cloud.asset.v1.Asset', ['name', 'assetType', 'resource', 'iamPolicy']),
    resource: numbers('google.cloud.asset.v1.Resource', ['data']),
    struct: numbers('google.protobuf.Struct', ['fields']),
  };
})();

/** A map field's entries are messages of a key (field 1) and a value (field 2): the protobuf encoding's rule. */
const mapEntry = { key: 1, value: 2 };
/** The wire type of strings and messages. */
const lengthDelimited = 2;

/**
 * The number of the next length-delimited field before `end`, any other field stepped over; 0
 * (no field's number) at the end. The caller reads or steps over the field's value.
 */
function nextField(reader: Reader, end: number): number {
  while (reader.pos < end) {
    const tag = reader.uint32();
    if ((tag & 7) === lengthDelimited) return tag >>> 3;
    reader.skipType(tag & 7);
  }
  return 0;
}

/** The end of the length-delimited value the reader is at, its length read. */
function endOf(reader: Reader): number {
  const length = reader.uint32();
  return reader.pos + length;
}

/** A page's next page token and how many assets it holds, read without decoding any asset. */
export function pageSummary(bytes: Uint8Array): { nextPageToken: string; assets: number } {
  const reader = protobufMinimal.Reader.create(bytes);
  let nextPageToken = '';
  let assets = 0;
  for (let field; (field = nextField(reader, reader.len)) !== 0;) {
    if (field === fields.response.nextPageToken) nextPageToken = reader.string();
    else {
      if (field === fields.response.assets) assets++;
      reader.skipType(lengthDelimited);
    }
  }
  return { nextPageToken, assets };
}

/** The top-level fields of resources' data to keep, by name and as the bytes their keys are written in. */
export class DataFields {
  readonly #keys: { name: string; bytes: Buffer }[];

  constructor(names: readonly string[]) {
    this.#keys = names.map((name) => ({ name, bytes: Buffer.from(name) }));
  }

  /**
   * The name of the key the reader is at, when it is one to keep; the key is stepped over either
   * way. Its bytes are compared where they lie: no string is made of a key that is not kept.
   */
  read(reader: Reader): string | undefined {
    const length = reader.uint32();
    const start = reader.pos;
    reader.skip(length);
    for (const { name, bytes } of this.#keys) {
      if (bytes.length !== length) continue;
      let at = 0;
      while (at < bytes.length && bytes[at] === reader.buf[start + at]) at++;
      if (at === bytes.length) return name;
    }
    return undefined;
  }
}

/** A page's assets, each with its resource's data reduced to the top-level fields named. */
export function assetsOf(bytes: Uint8Array, dataFields: DataFields): Asset[] {
  const reader = protobufMinimal.Reader.create(bytes);
  const assets: Asset[] = [];
  for (let field; (field = nextField(reader, reader.len)) !== 0;) {
    if (field === fields.response.assets) assets.push(readAsset(reader, dataFields));
    else reader.skipType(lengthDelimited);
  }
  return assets;
}

function readAsset(reader: Reader, dataFields: DataFields): Asset {
  const asset: Asset = {};
  const end = endOf(reader);
  for (let field; (field = nextField(reader, end)) !== 0;) {
    if (field === fields.asset.name) asset.name = reader.string();
    else if (field === fields.asset.assetType) asset.assetType = reader.string();
    else if (field === fields.asset.iamPolicy) asset.iamPolicy = protos.google.iam.v1.Policy.decode(reader, reader.uint32());
    else if (field === fields.asset.resource) asset.resource = { data: { fields: readData(reader, dataFields) } };
    else reader.skipType(lengthDelimited);
  }
  return asset;
}

/** The named top-level fields of a Resource's `data`. */
function readData(reader: Reader, dataFields: DataFields): Record<string, Value> {
  const data: Record<string, Value> = {};
  const end = endOf(reader);
  for (let field; (field = nextField(reader, end)) !== 0;) {
    if (field !== fields.resource.data) {
      reader.skipType(lengthDelimited);
      continue;
    }
    const structEnd = endOf(reader);
    for (let structField; (structField = nextField(reader, structEnd)) !== 0;) {
      if (structField === fields.struct.fields) readEntry(reader, dataFields, data);
      else reader.skipType(lengthDelimited);
    }
  }
  return data;
}

/** One entry of a Struct's `fields`, kept when its key is named; its value is decoded only then. */
function readEntry(reader: Reader, dataFields: DataFields, data: Record<string, Value>): void {
  const end = endOf(reader);
  let key: string | undefined;
  let valueStart = -1;
  let valueLength = 0;
  for (let field; (field = nextField(reader, end)) !== 0;) {
    if (field === mapEntry.key) key = dataFields.read(reader);
    else if (field === mapEntry.value) {
      valueLength = reader.uint32();
      valueStart = reader.pos;
      reader.skip(valueLength);
    } else reader.skipType(lengthDelimited);
  }
  if (key === undefined || valueStart < 0) return;
  // The key may come after the value, so the value is decoded once both are known.
  reader.pos = valueStart;
  data[key] = protos.google.protobuf.Value.decode(reader, valueLength);
  reader.pos = end;
}
