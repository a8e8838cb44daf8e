/**
 * Extracts from Google's published description of the Vertex AI API the subset the Vertex AI
 * stand-in holds requests and answers to: the `generateContent` method's HTTP rule and the
 * messages the chat's model reader sends and reads (contents and parts, the system instruction,
 * tools with function declarations, the tool config, the generation config; candidates, function
 * calls, usage). The description is the protobuf JSON descriptor (`build/protos/protos.json`,
 * generated from Google's `google/cloud/aiplatform/v1/*.proto`) that `@google-cloud/aiplatform`
 * ships; the package is read from a tarball unpacked outside the repository, never installed:
 *
 *   cd /tmp && npm pack @google-cloud/aiplatform@7.4.0 && tar xzf google-cloud-aiplatform-7.4.0.tgz
 *   node test/stand-ins/vertex-ai/extract-description.ts /tmp/package/build/protos/protos.json
 *
 * Each listed message or enum is copied as published, with two changes: a field's type is written
 * as its full name (the descriptor writes it relative to the message), and a field whose type is
 * outside the subset is left out (listed under `x-provenance.left-out`). The stand-in treats a field
 * left out like an unknown one, so it is stricter than the API there; the transport sends none.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';

const v1 = 'google.cloud.aiplatform.v1';

/** The messages and enums of the subset, by name inside `google.cloud.aiplatform.v1`. */
const subset = [
  'GenerateContentRequest',
  'Content',
  'Part',
  'FunctionCall',
  'Tool',
  'FunctionDeclaration',
  'Schema',
  'Type',
  'ToolConfig',
  'FunctionCallingConfig',
  'FunctionCallingConfig.Mode',
  'GenerationConfig',
  'GenerationConfig.ThinkingConfig',
  'GenerationConfig.ThinkingConfig.ThinkingLevel',
  'GenerateContentResponse',
  'GenerateContentResponse.UsageMetadata',
  'GenerateContentResponse.UsageMetadata.TrafficType',
  'GenerateContentResponse.PromptFeedback',
  'GenerateContentResponse.PromptFeedback.BlockedReason',
  'ModalityTokenCount',
  'Modality',
  'Candidate',
  'Candidate.FinishReason',
  'SafetyRating',
  'SafetyRating.HarmSeverity',
  'SafetyRating.HarmProbability',
  'HarmCategory',
].map((name) => `${v1}.${name}`);

/** Protobuf's well-known types the stand-in knows how to read in JSON. */
const wellKnown = ['google.protobuf.Struct', 'google.protobuf.Value', 'google.protobuf.Timestamp'];

const scalars = new Set([
  'double',
  'float',
  'int32',
  'int64',
  'uint32',
  'uint64',
  'sint32',
  'sint64',
  'fixed32',
  'fixed64',
  'sfixed32',
  'sfixed64',
  'bool',
  'string',
  'bytes',
]);

interface DescriptorField {
  type: string;
  id: number;
  rule?: string;
  keyType?: string;
  options?: Record<string, unknown>;
}

interface DescriptorNode {
  fields?: Record<string, DescriptorField>;
  oneofs?: Record<string, { oneof: string[] }>;
  values?: Record<string, number>;
  nested?: Record<string, DescriptorNode>;
  methods?: Record<string, { requestType: string; responseType: string; parsedOptions?: unknown[] }>;
}

function nodeAt(root: DescriptorNode, fullName: string): DescriptorNode | undefined {
  let node: DescriptorNode | undefined = root;
  for (const part of fullName.split('.')) node = node?.nested?.[part];
  return node;
}

/** The full name a field's type refers to from inside `scope`, as protobuf resolves it: innermost scope first. */
function resolve(root: DescriptorNode, scope: string, type: string): string {
  if (scalars.has(type)) return type;
  const parts = scope.split('.');
  for (let i = parts.length; i >= 0; i--) {
    const candidate = [...parts.slice(0, i), type].join('.');
    if (nodeAt(root, candidate)) return candidate;
  }
  throw new Error(`${type} is not declared from ${scope}`);
}

function copyMessage(root: DescriptorNode, name: string, node: DescriptorNode, leftOut: string[]) {
  const known = new Set([...subset, ...wellKnown, ...scalars]);
  const fields: Record<string, DescriptorField> = {};
  for (const [fieldName, field] of Object.entries(node.fields ?? {})) {
    const type = resolve(root, name, field.type);
    if (known.has(type)) fields[fieldName] = { ...field, type };
    else leftOut.push(`${name}.${fieldName} (${type})`);
  }
  const oneofs = Object.fromEntries(
    Object.entries(node.oneofs ?? {})
      .map(([oneof, { oneof: members }]) => [oneof, { oneof: members.filter((member) => member in fields) }] as const)
      .filter(([, { oneof: members }]) => members.length > 0),
  );
  return { fields, ...(Object.keys(oneofs).length > 0 ? { oneofs } : {}) };
}

function extract(root: DescriptorNode) {
  const leftOut: string[] = [];
  const types = Object.fromEntries(
    subset.map((name) => {
      const node = nodeAt(root, name);
      if (!node) throw new Error(`${name} is not in the descriptor`);
      return [name, node.values ? { values: node.values } : copyMessage(root, name, node, leftOut)];
    }),
  );
  const generateContent = nodeAt(root, `${v1}.PredictionService`)?.methods?.GenerateContent;
  if (!generateContent) throw new Error('PredictionService.GenerateContent is not in the descriptor');
  return {
    'x-provenance': {
      package: '@google-cloud/aiplatform',
      repository: 'https://github.com/googleapis/google-cloud-node (packages/google-cloud-aiplatform)',
      version: '7.4.0',
      file: 'build/protos/protos.json (generated from google/cloud/aiplatform/v1/prediction_service.proto, content.proto, tool.proto, openapi.proto)',
      licence: 'Apache-2.0',
      extracted: new Date().toISOString().slice(0, 10),
      by: 'test/stand-ins/vertex-ai/extract-description.ts: the listed messages and enums, field types written as full names',
      'left-out': leftOut,
    },
    methods: { [`${v1}.PredictionService.GenerateContent`]: generateContent },
    types,
  };
}

const [source] = process.argv.slice(2);
if (!source) throw new Error('usage: node extract-description.ts <path to protos.json>');
const target = new URL('./aiplatform-v1.subset.json', import.meta.url);
const text = JSON.stringify(extract(JSON.parse(readFileSync(source, 'utf8')) as DescriptorNode));
const options = await resolveConfig(target.pathname);
writeFileSync(target, await format(text, { ...options, parser: 'json' }));
