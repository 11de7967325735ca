/**
 * Validating JSON values against the schemas of an API description, with Ajv 8 in JSON Schema
 * draft 2020-12 mode: the dialect of OpenAPI 3.1.
 *
 * Two modes:
 * - `open`: the description as written, the way an integrator's validator reads it. Objects the
 *   device sends accept unknown fields, so a newer firmware's answer still validates.
 * - `closed` (the default for our own examples and page blocks): additionally, an object may only
 *   hold the fields its schema names. A typo in an example (`cloud_enable`) then fails a test,
 *   although the published description would accept it as an unknown field.
 */
import Ajv2020, {type ErrorObject, type ValidateFunction} from 'ajv/dist/2020';
import {ApiToolingError, loadApi, type JsonSchema} from './documents';

type Check = (value: unknown) => string[];
export type Mode = 'open' | 'closed';

/** OpenAPI keywords that are not JSON Schema keywords but may sit in a schema object. */
const OPENAPI_KEYWORDS = ['discriminator', 'xml', 'externalDocs', 'example'];

function extensionKeywords(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) extensionKeywords(item, found);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-')) found.add(key);
      extensionKeywords(value, found);
    }
  }
  return found;
}

const DATA_KEYWORDS = new Set(['const', 'enum', 'examples', 'example', 'default']);

/** A copy of the schemas where every object schema that does not say otherwise allows no other fields. */
function closeObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (DATA_KEYWORDS.has(key)) out[key] = value; // values, not schemas
    // `properties` maps names to schemas: close the schemas, never add keys to the map itself.
    else if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, closeObjects(v)]));
    } else out[key] = closeObjects(value);
  }
  const schema = out as JsonSchema;
  // unevaluatedProperties (not additionalProperties) so fields named in allOf/anyOf parts count.
  if (schema.type === 'object' && schema.properties && !('additionalProperties' in schema) && !('unevaluatedProperties' in schema)) {
    out.unevaluatedProperties = false;
  }
  return out;
}

const validators = new Map<string, Ajv2020>();

function ajvFor(api: string, mode: Mode): Ajv2020 {
  const key = `${api} ${mode}`;
  const hit = validators.get(key);
  if (hit) return hit;
  const schemas = loadApi(api).components?.schemas ?? {};
  // strictTypes off: OpenAPI schemas put `minimum` next to `type: [number, 'null']` and the like.
  const ajv = new Ajv2020({allErrors: true, strictTypes: false});
  for (const keyword of [...OPENAPI_KEYWORDS, ...extensionKeywords(schemas)]) ajv.addKeyword(keyword);
  // The schemas are registered as the $defs of one document; their refs "#/components/schemas/X"
  // become "#/$defs/X" so they resolve inside it.
  const defs = JSON.parse(JSON.stringify(mode === 'closed' ? closeObjects(schemas) : schemas).replace(/"#\/components\/schemas\//g, '"#/$defs/')) as object;
  ajv.addSchema({$id: `${api}-${mode}.json`, $defs: defs});
  validators.set(key, ajv);
  return ajv;
}

function words(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const extra = e.keyword === 'unevaluatedProperties' || e.keyword === 'additionalProperties'
      ? ` (${String((e.params as Record<string, unknown>).unevaluatedProperty ?? (e.params as Record<string, unknown>).additionalProperty)})`
      : '';
    return `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}${extra}`;
  });
}

function checker(validate: ValidateFunction): Check {
  return (value) => (validate(value) ? [] : words(validate.errors));
}

/** Returns a checker for `api:Name`; its result lists problems (empty = valid). */
export function schemaCheck(api: string, name: string, mode: Mode = 'closed'): Check {
  if (!loadApi(api).components?.schemas?.[name]) {
    throw new ApiToolingError(`API "${api}" has no schema "${name}"`);
  }
  const id = `${api}-${mode}.json`;
  let validate: ValidateFunction | undefined;
  try {
    validate = ajvFor(api, mode).getSchema(`${id}#/$defs/${name}`);
  } catch (error) {
    throw new ApiToolingError(`schema "${api}:${name}" does not compile: ${(error as Error).message}`);
  }
  if (!validate) throw new ApiToolingError(`schema "${api}:${name}" does not compile`);
  return checker(validate);
}

/** Checks a value against an inline schema object that may hold `$ref`s into the components. */
const inlineCache = new Map<string, Check>();

export function inlineCheck(api: string, schema: object, mode: Mode = 'closed'): Check {
  const key = `${api} ${mode} ${JSON.stringify(schema)}`;
  const hit = inlineCache.get(key);
  if (hit) return hit;
  const ajv = ajvFor(api, mode);
  const local = mode === 'closed' ? closeObjects(schema) : schema;
  const rewritten = JSON.parse(
    JSON.stringify(local).replace(/"#\/components\/schemas\//g, `"${api}-${mode}.json#/$defs/`),
  ) as object;
  const check = checker(ajv.compile(rewritten));
  inlineCache.set(key, check);
  return check;
}
