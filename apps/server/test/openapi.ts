// The Traccar OpenAPI contract for tests: loads `shared/reference/traccar-openapi.yaml` (kept
// beside the repository, never copied into it) and validates values against its
// `components.schemas` with Ajv's JSON Schema 2020-12 dialect (OpenAPI 3.1 writes nullable
// fields as type arrays such as `[string, 'null']`).
//
//   expectSchema(body, 'User');          // throws a readable error listing every mismatch
//   expectArrayOf(body, 'Device');       // an array whose every item is a Device
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

let loaded: { doc: OpenApiDocument; ajv: Ajv2020; validators: Map<string, ValidateFunction> } | null = null;

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
  // The whole document is one schema resource, so `#/components/schemas/X` refs resolve in it.
  ajv.addSchema({ $id: DOC_ID, components: doc.components }, DOC_ID);
  loaded = { doc, ajv, validators: new Map() };
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

function validator(name: string): ValidateFunction {
  const state = load();
  let fn = state.validators.get(name);
  if (!fn) {
    if (!(name in state.doc.components.schemas)) {
      throw new Error(`No schema "${name}" in ${OPENAPI_FILE}; known: ${schemaNames().join(', ')}`);
    }
    const compiled = state.ajv.getSchema(`${DOC_ID}#/components/schemas/${name}`);
    if (!compiled) throw new Error(`Schema "${name}" did not compile`);
    fn = compiled;
    state.validators.set(name, fn);
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
  return `${where} ${error.message ?? error.keyword}${got}`;
}

/** Every mismatch of `value` against `components.schemas.<name>`, as readable lines (empty when valid). */
export function schemaErrors(value: unknown, name: string, prefix = ''): string[] {
  const fn = validator(name);
  if (fn(value)) return [];
  const lines = (fn.errors ?? []).map((e) => describeError(value, e, prefix));
  return [...new Set(lines)];
}

/** Fails (throws) unless `value` matches `components.schemas.<name>`. Returns the value for chaining. */
export function expectSchema<T = unknown>(value: T, name: string): T {
  const errors = schemaErrors(value, name);
  if (errors.length) {
    throw new Error(`Response does not match the Traccar OpenAPI schema ${name}:\n  - ${errors.join('\n  - ')}\nvalue: ${show(value)}`);
  }
  return value;
}

/** Fails unless `values` is an array whose every item matches `components.schemas.<name>`. */
export function expectArrayOf<T = unknown>(values: T[], name: string, options: { minLength?: number } = {}): T[] {
  if (!Array.isArray(values)) {
    throw new Error(`Expected an array of ${name}, got ${show(values)}`);
  }
  const min = options.minLength ?? 0;
  if (values.length < min) throw new Error(`Expected at least ${min} ${name} item(s), got ${values.length}`);
  const errors = values.flatMap((v, i) => schemaErrors(v, name, `[${i}]`));
  if (errors.length) {
    throw new Error(`Array items do not match the Traccar OpenAPI schema ${name}:\n  - ${errors.join('\n  - ')}`);
  }
  return values;
}
