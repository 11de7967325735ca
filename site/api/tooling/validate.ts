/**
 * Validating JSON values against the schemas of an API description. The schemas are written in
 * the part of JSON Schema that draft-07 and 2020-12 share, so the installed Ajv 6 checks them.
 */
import Ajv from 'ajv';
import {ApiToolingError, loadApi} from './documents';

type Check = (value: unknown) => string[];

const validators = new Map<string, Ajv.Ajv>();

function ajvFor(api: string): Ajv.Ajv {
  const hit = validators.get(api);
  if (hit) return hit;
  const ajv = new Ajv({allErrors: true, schemaId: 'auto'});
  const doc = loadApi(api);
  // Only the components are registered: refs like "#/components/schemas/X" resolve inside it.
  ajv.addSchema({$id: `${api}.json`, components: {schemas: doc.components?.schemas ?? {}}});
  validators.set(api, ajv);
  return ajv;
}

/** Returns a checker for `api:Name`; its result lists problems (empty = valid). */
export function schemaCheck(api: string, name: string): Check {
  if (!loadApi(api).components?.schemas?.[name]) {
    throw new ApiToolingError(`API "${api}" has no schema "${name}"`);
  }
  const validate = ajvFor(api).getSchema(`${api}.json#/components/schemas/${name}`);
  if (!validate) throw new ApiToolingError(`schema "${api}:${name}" does not compile`);
  return (value) => {
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${e.dataPath || '(root)'} ${e.message ?? 'is invalid'}`);
  };
}

/** Checks a value against an inline schema object that may hold `$ref`s into the components. */
const inlineCache = new Map<string, Check>();

export function inlineCheck(api: string, schema: object): Check {
  const key = `${api} ${JSON.stringify(schema)}`;
  const hit = inlineCache.get(key);
  if (hit) return hit;
  const ajv = ajvFor(api);
  const rewritten = JSON.parse(
    JSON.stringify(schema).replace(/"#\/components\//g, `"${api}.json#/components/`),
  ) as object;
  const validate = ajv.compile(rewritten);
  const check: Check = (value) => {
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${e.dataPath || '(root)'} ${e.message ?? 'is invalid'}`);
  };
  inlineCache.set(key, check);
  return check;
}
