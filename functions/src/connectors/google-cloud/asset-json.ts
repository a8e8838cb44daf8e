/**
 * The client's decoded messages as plain JSON: a resource's `data` (a google.protobuf.Struct)
 * as the object it stands for, and an IAM policy with its enums by name.
 */
import { protos } from '@google-cloud/asset';

type Struct = protos.google.protobuf.IStruct;
type Value = protos.google.protobuf.IValue;

const LogType = protos.google.iam.v1.AuditLogConfig.LogType;

/** A Struct as the JSON object it carries; an absent one as `{}`. */
export function jsonOfStruct(struct: Struct | null | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(struct?.fields ?? {}).map(([key, value]) => [key, jsonOfValue(value)]));
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
