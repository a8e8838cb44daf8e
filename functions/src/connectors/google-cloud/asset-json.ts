/**
 * Decoded assets (list-assets-page.ts) as plain JSON: a resource's `data` (a
 * google.protobuf.Struct) as the object it stands for, and an IAM policy with its enums by name.
 */
import { protos } from '@google-cloud/asset';

type Struct = protos.google.protobuf.IStruct;
type Value = protos.google.protobuf.IValue;

const LogType = protos.google.iam.v1.AuditLogConfig.LogType;

/**
 * A Struct as the JSON object it carries; an absent one as `{}`. With `only`, just those
 * top-level fields: a resource's data is converted for what its evidence reads (a listing of
 * several types keeps the fields any of them reads).
 */
export function jsonOfStruct(struct: Struct | null | undefined, only?: readonly string[]): Record<string, unknown> {
  const fields = struct?.fields ?? {};
  const json: Record<string, unknown> = {};
  for (const name of only ?? Object.keys(fields)) {
    const value = fields[name];
    if (value !== undefined) json[name] = jsonOfValue(value);
  }
  return json;
}

/** The member of the `kind` oneof that is set: the decoder leaves the others null or undefined. */
function jsonOfValue(value: Value): unknown {
  const set = <T>(member: T | null | undefined): member is T => member !== null && member !== undefined;
  if (set(value.structValue)) return jsonOfStruct(value.structValue);
  if (set(value.listValue)) return (value.listValue.values ?? []).map(jsonOfValue);
  if (set(value.stringValue)) return value.stringValue;
  if (set(value.boolValue)) return value.boolValue;
  if (set(value.numberValue)) return value.numberValue;
  return null;
}

/** An IAM policy's bindings and audit configuration; an absent policy grants and logs nothing. */
export function policyJson(policy: protos.google.iam.v1.IPolicy | null | undefined) {
  return {
    bindings: (policy?.bindings ?? []).map((binding) => ({ role: binding.role ?? '', members: binding.members ?? [] })),
    auditConfigs: (policy?.auditConfigs ?? []).map((config) => ({
      service: config.service ?? '',
      auditLogConfigs: (config.auditLogConfigs ?? []).map((log) => ({
        logType: typeof log.logType === 'number' ? LogType[log.logType] : String(log.logType ?? ''),
        exemptedMembers: log.exemptedMembers ?? [],
      })),
    })),
  };
}
