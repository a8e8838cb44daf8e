/**
 * Okta's published OAuth 2.0 description of `POST /oauth2/v1/token` (the subset in
 * oauth-subset.json, with its provenance) as checks for the Okta stand-in's org authorization
 * server: whether a token request's form fits the grant's schema (picked by the `grant_type`
 * discriminator, as in okta-description.ts) plus the `private_key_jwt` client authentication
 * fields, and whether an answer's body fits the schema of its status.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';

interface Schema {
  $ref?: string;
  allOf?: Schema[];
  properties?: Record<string, unknown>;
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
}
interface Description {
  paths: {
    '/oauth2/v1/token': {
      post: {
        requestBody: { content: Record<string, { schema: Schema }> };
        responses: Record<string, { $ref?: string; content?: Record<string, { schema: Schema }> }>;
      };
    };
  };
  components: { schemas: Record<string, Schema>; responses: Record<string, { content: Record<string, { schema: Schema }> }> };
}

const description = JSON.parse(readFileSync(new URL('./oauth-subset.json', import.meta.url), 'utf8')) as Description;
const operation = description.paths['/oauth2/v1/token'].post;
const formType = 'application/x-www-form-urlencoded';

/** The form fields of the `private_key_jwt` client authentication scheme (the description's securitySchemes). */
export const clientAssertionFields = ['client_assertion', 'client_assertion_type'] as const;

const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addKeyword({ keyword: 'discriminator' });
ajv.addSchema({ components: description.components }, 'okta-oauth');
const validators = new Map<string, ValidateFunction>();
function validatorOf(ref: string): ValidateFunction {
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: `okta-oauth${ref}` });
    validators.set(ref, validate);
  }
  return validate;
}
const refName = (ref: string): string => ref.split('/').pop()!;

/** The properties a schema names, through its `allOf`. */
function propertiesOf(schema: Schema | undefined): string[] {
  if (!schema) return [];
  const own = Object.keys(schema.properties ?? {});
  const inherited = (schema.allOf ?? []).flatMap((part) =>
    part.$ref ? propertiesOf(description.components.schemas[refName(part.$ref)]) : propertiesOf(part),
  );
  return [...own, ...inherited];
}

/** What is wrong with a token request: its content type, its grant's schema, and fields neither names. */
export function tokenRequestErrors(contentType: string | undefined, form: URLSearchParams): string[] {
  if (contentType?.split(';')[0]?.trim() !== formType) return [`POST /oauth2/v1/token sent ${contentType ?? 'no content type'}`];
  const baseRef = operation.requestBody.content[formType]!.schema.$ref!;
  const mapping = description.components.schemas[refName(baseRef)]?.discriminator?.mapping ?? {};
  const grantRef = mapping[form.get('grant_type') ?? ''];
  if (!grantRef) return [`grant_type "${form.get('grant_type')}" is not one the description maps`];
  const values = Object.fromEntries(form.entries());
  const validate = validatorOf(grantRef);
  const errors = validate(values)
    ? []
    : [`the token request does not fit ${refName(grantRef)}: ${ajv.errorsText(validate.errors)}`];
  const named = new Set([...propertiesOf(description.components.schemas[refName(grantRef)]), ...clientAssertionFields]);
  for (const field of form.keys()) if (!named.has(field)) errors.push(`the token request's field "${field}" is not described`);
  return errors;
}

/** What is wrong with the token endpoint's answer body for its status. */
export function tokenResponseErrors(status: number, body: unknown): string[] {
  const response = operation.responses[String(status)];
  const content = response?.$ref ? description.components.responses[refName(response.$ref)]?.content : response?.content;
  const ref = content?.['application/json']?.schema.$ref;
  if (!ref) return [`POST /oauth2/v1/token describes no ${status} body`];
  const validate = validatorOf(ref);
  return validate(body)
    ? []
    : [`the ${status} body of POST /oauth2/v1/token does not fit ${refName(ref)}: ${ajv.errorsText(validate.errors)}`];
}
