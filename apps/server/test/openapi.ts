// The Traccar OpenAPI contract for tests: loads `shared/reference/traccar-openapi.yaml` (kept
// beside the repository, never copied into it) and validates values against its
// `components.schemas` with Ajv's JSON Schema 2020-12 dialect (OpenAPI 3.1 writes nullable
// fields as type arrays such as `[string, 'null']`).
//
//   expectSchema(body, 'User');          // throws a readable error listing every mismatch
//   expectArrayOf(body, 'Device');       // an array whose every item is a Device
//
// Nulls: Traccar serialises absent values as `null` (its Jackson mapper includes nulls), while
// the OpenAPI file marks only some fields nullable (`password`, Server `map`... are plain
// `string` there but `null` on the wire). By default a property that the schema does not
// require may therefore be `null`; every non-null value is still checked against its type and
// format. Pass `{ strictNulls: true }` to validate exactly as the file says.
//
// When the file is missing, loading it throws: a contract suite must fail, never pass empty.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse as parseYaml } from 'yaml';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Where the contract lives: `<repo>/../shared/reference/traccar-openapi.yaml` (override: RASTRO_OPENAPI_FILE). */
export const OPENAPI_FILE =
  process.env.RASTRO_OPENAPI_FILE?.trim() ||
  path.resolve(repoRoot, '..', 'shared', 'reference', 'traccar-openapi.yaml');

const DOC_ID = 'traccar-openapi';

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown> };
}

export interface SchemaOptions {
  /** Validate nulls exactly as the file says (default: optional properties may be null, as Traccar sends them). */
  strictNulls?: boolean;
}

type JsonSchema = Record<string, unknown>;

interface Loaded {
  doc: OpenApiDocument;
  ajv: { strict: Ajv2020; lenient: Ajv2020 };
  validators: Map<string, ValidateFunction>;
}

let loaded: Loaded | null = null;

/** Adds `null` to a schema's accepted values (type arrays, enums, or anyOf for refs/compositions). */
function allowNull(schema: JsonSchema): JsonSchema {
  const type = schema.type;
  if (typeof type === 'string') {
    if (type === 'null') return schema;
    const widened: JsonSchema = { ...schema, type: [type, 'null'] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) widened.enum = [...schema.enum, null];
    return widened;
  }
  if (Array.isArray(type)) {
    if (type.includes('null')) return schema;
    const widened: JsonSchema = { ...schema, type: [...type, 'null'] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) widened.enum = [...schema.enum, null];
    return widened;
  }
  return { anyOf: [schema, { type: 'null' }] };
}

/** Copy of a schema in which every property not listed in `required` may also be null. */
function withOptionalNulls(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withOptionalNulls);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema as JsonSchema)) {
    out[key] = key === 'enum' || key === 'const' || key === 'example' || key === 'examples' ? value : withOptionalNulls(value);
  }
  const props = out.properties;
  if (props && typeof props === 'object' && !Array.isArray(props)) {
    const required = new Set(Array.isArray(out.required) ? (out.required as string[]) : []);
    out.properties = Object.fromEntries(
      Object.entries(props as Record<string, JsonSchema>).map(([name, prop]) => [name, required.has(name) ? prop : allowNull(prop)]),
    );
  }
  return out;
}

function newAjv(schemas: unknown): Ajv2020 {
  // strict: false lets OpenAPI's own keywords (example, xml, discriminator...) through unvalidated.
  const ajv = new Ajv2020({ allErrors: true, strict: false, logger: false });
  // ajv-formats is CommonJS; under ESM its function may sit on `.default`.
  const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv2020) => void;
  addFormats(ajv);
  // OpenAPI's numeric formats (not JSON Schema ones).
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat('float', { type: 'number', validate: () => true });
  ajv.addFormat('double', { type: 'number', validate: () => true });
  ajv.addFormat('binary', true);
  ajv.addFormat('byte', true);
  ajv.addFormat('password', true);
  // The schemas form one resource, so `#/components/schemas/X` refs resolve inside it.
  ajv.addSchema({ $id: DOC_ID, components: { schemas } }, DOC_ID);
  return ajv;
}

function load() {
  if (loaded) return loaded;
  if (!fs.existsSync(OPENAPI_FILE)) {
    throw new Error(
      `Traccar OpenAPI contract not found at ${OPENAPI_FILE}.\n` +
        'The contract tests validate responses against shared/reference/traccar-openapi.yaml, which lives in the ' +
        'shared/ folder beside the repository (CI clones it there). Put shared/ next to this checkout, or set ' +
        'RASTRO_OPENAPI_FILE to the file. The suite fails instead of passing without it.',
    );
  }
  const doc = parseYaml(fs.readFileSync(OPENAPI_FILE, 'utf8')) as OpenApiDocument;
  if (!doc?.components?.schemas || typeof doc.openapi !== 'string') {
    throw new Error(`${OPENAPI_FILE} has no components.schemas: not an OpenAPI document`);
  }
  loaded = {
    doc,
    ajv: { strict: newAjv(doc.components.schemas), lenient: newAjv(withOptionalNulls(doc.components.schemas)) },
    validators: new Map(),
  };
  return loaded;
}

/** Names under components.schemas (User, Device, Position, ...). */
export function schemaNames(): string[] {
  return Object.keys(load().doc.components.schemas);
}

/** The parsed OpenAPI document (paths, components). */
export function openApiDocument(): OpenApiDocument {
  return load().doc;
}

function validator(name: string, options: SchemaOptions): ValidateFunction {
  const state = load();
  const key = `${options.strictNulls ? 'strict' : 'lenient'}:${name}`;
  let fn = state.validators.get(key);
  if (!fn) {
    if (!Object.hasOwn(state.doc.components.schemas, name)) {
      throw new Error(`No schema "${name}" in ${OPENAPI_FILE}; known: ${schemaNames().join(', ')}`);
    }
    const ajv = options.strictNulls ? state.ajv.strict : state.ajv.lenient;
    const compiled = ajv.getSchema(`${DOC_ID}#/components/schemas/${name}`);
    if (!compiled) throw new Error(`Schema "${name}" did not compile`);
    fn = compiled;
    state.validators.set(key, fn);
  }
  return fn;
}

function valueAt(root: unknown, pointer: string): unknown {
  let node: unknown = root;
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function show(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function describeError(root: unknown, error: ErrorObject, prefix: string): string {
  const where = `${prefix}${error.instancePath}` || '(root)';
  const got = error.keyword === 'required' || error.keyword === 'additionalProperties' ? '' : ` (got ${show(valueAt(root, error.instancePath))})`;
  const message =
    error.keyword === 'type' ? `must be ${String((error.params as { type: unknown }).type).split(',').join(' or ')}` : (error.message ?? error.keyword);
  return `${where} ${message}${got}`;
}

/** Every mismatch of `value` against `components.schemas.<name>`, as readable lines (empty when valid). */
export function schemaErrors(value: unknown, name: string, options: SchemaOptions & { prefix?: string } = {}): string[] {
  const prefix = options.prefix ?? '';
  const fn = validator(name, options);
  if (fn(value)) return [];
  // anyOf (a nullable $ref) adds a summary error after the branch errors; keep the branch errors.
  const lines = (fn.errors ?? []).filter((e) => e.keyword !== 'anyOf').map((e) => describeError(value, e, prefix));
  return [...new Set(lines)];
}

/** Fails (throws) unless `value` matches `components.schemas.<name>`. Returns the value for chaining. */
export function expectSchema<T = unknown>(value: T, name: string, options: SchemaOptions = {}): T {
  const errors = schemaErrors(value, name, options);
  if (errors.length) {
    throw new Error(`Response does not match the Traccar OpenAPI schema ${name}:\n  - ${errors.join('\n  - ')}\nvalue: ${show(value)}`);
  }
  return value;
}

/** Fails unless `values` is an array whose every item matches `components.schemas.<name>`. */
export function expectArrayOf<T = unknown>(values: T[], name: string, options: SchemaOptions & { minLength?: number } = {}): T[] {
  if (!Array.isArray(values)) {
    throw new Error(`Expected an array of ${name}, got ${show(values)}`);
  }
  const min = options.minLength ?? 0;
  if (values.length < min) throw new Error(`Expected at least ${min} ${name} item(s), got ${values.length}`);
  const errors = values.flatMap((v, i) => schemaErrors(v, name, { ...options, prefix: `[${i}]` }));
  if (errors.length) {
    throw new Error(`Array items do not match the Traccar OpenAPI schema ${name}:\n  - ${errors.join('\n  - ')}`);
  }
  return values;
}

interface OperationResponse {
  content?: Record<string, { schema?: unknown }>;
}

/** Rewrites document-local refs (`#/components/...`) so a path's inline schema compiles on its own. */
function rebaseRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebaseRefs);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema as JsonSchema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${DOC_ID}${v}` : rebaseRefs(v)]),
  );
}

/**
 * Checks a response against the operation `METHOD path` of the OpenAPI file (path as written
 * there, without `/api`: `/devices/{id}`): the status must be one the operation documents, and
 * a body documented with a schema must match it. Returns the body.
 */
export function expectResponse<T = unknown>(
  method: string,
  apiPath: string,
  res: { status: number; json: unknown; text?: string },
  options: SchemaOptions = {},
): T {
  const state = load();
  const operation = state.doc.paths[apiPath]?.[method.toLowerCase()] as { responses?: Record<string, OperationResponse> } | undefined;
  if (!operation?.responses) throw new Error(`The Traccar OpenAPI file has no operation ${method.toUpperCase()} ${apiPath}`);
  const documented = operation.responses[String(res.status)];
  if (!documented) {
    const body = res.text ?? JSON.stringify(res.json) ?? '';
    throw new Error(
      `${method.toUpperCase()} ${apiPath} answered ${res.status}, which the OpenAPI file does not document ` +
        `(documented: ${Object.keys(operation.responses).join(', ')}); body: ${body.slice(0, 300)}`,
    );
  }
  const schema = documented.content ? Object.values(documented.content)[0]?.schema : undefined;
  if (!schema || res.status >= 300) return res.json as T;
  const key = `${options.strictNulls ? 'strict' : 'lenient'}:${method.toUpperCase()} ${apiPath} ${res.status}`;
  let fn = state.validators.get(key);
  if (!fn) {
    fn = (options.strictNulls ? state.ajv.strict : state.ajv.lenient).compile(rebaseRefs(schema) as JsonSchema);
    state.validators.set(key, fn);
  }
  if (!fn(res.json)) {
    const errors = [...new Set((fn.errors ?? []).filter((e) => e.keyword !== 'anyOf').map((e) => describeError(res.json, e, '')))];
    throw new Error(
      `${method.toUpperCase()} ${apiPath} ${res.status} does not match the Traccar OpenAPI response schema:\n  - ${errors.join('\n  - ')}\nbody: ${show(res.json)}`,
    );
  }
  return res.json as T;
}
