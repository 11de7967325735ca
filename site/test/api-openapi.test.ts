import {test} from 'node:test';
import assert from 'node:assert/strict';
import {
  API_DOCUMENTS,
  apiFile,
  deref,
  loadApi,
  operations,
  type ApiExample,
  type JsonSchema,
} from '../api/tooling/documents';
import {inlineCheck, schemaCheck} from '../api/tooling/validate';

type Content = Record<string, {schema?: JsonSchema; examples?: Record<string, ApiExample>}>;

for (const api of Object.keys(API_DOCUMENTS)) {
  const doc = loadApi(api);
  const isOpenApi = typeof doc.openapi === 'string';

  test(`${api}: the description is a valid OpenAPI 3.1 document`, {skip: !isOpenApi}, async () => {
    const {Validator} = await import('@seriousme/openapi-schema-validator');
    const validator = new Validator();
    const result = await validator.validate(apiFile(api));
    assert.equal(doc.openapi?.startsWith('3.1'), true, `openapi is ${doc.openapi}`);
    assert.deepEqual(result.errors ?? [], []);
    assert.equal(result.valid, true);
  });

  test(`${api}: every component schema compiles`, () => {
    for (const name of Object.keys(doc.components?.schemas ?? {})) {
      assert.doesNotThrow(() => schemaCheck(api, name), `schema ${name}`);
    }
  });

  test(`${api}: every named example matches the schema named in its x-schema`, {skip: !isOpenApi}, () => {
    const examples = Object.entries(doc.components?.examples ?? {});
    assert.ok(examples.length > 0, 'the description has no examples');
    for (const [name, example] of examples) {
      if (typeof example.value === 'string' && !example['x-schema']) continue; // plain-text bodies
      assert.ok(example['x-schema'], `example ${name} has no x-schema`);
      const problems = schemaCheck(api, example['x-schema']!)(example.value);
      assert.deepEqual(problems, [], `example ${name} does not match ${example['x-schema']}`);
    }
  });

  test(`${api}: every example used by an operation matches that operation's schema`, {skip: !isOpenApi}, () => {
    for (const op of operations(api)) {
      const contents: [string, Content | undefined][] = [];
      const body = op.operation.requestBody as {content?: Content; $ref?: string} | undefined;
      if (body) contents.push([`${op.method} ${op.path} request`, deref(doc, body).content]);
      for (const [status, response] of Object.entries((op.operation.responses ?? {}) as Record<string, {$ref?: string; content?: Content}>)) {
        contents.push([`${op.method} ${op.path} ${status}`, deref(doc, response).content]);
      }
      for (const [where, content] of contents) {
        for (const media of Object.values(content ?? {})) {
          for (const [key, ref] of Object.entries(media.examples ?? {})) {
            const example = deref(doc, ref);
            if (!media.schema) continue;
            const problems = inlineCheck(api, media.schema)(example.value);
            assert.deepEqual(problems, [], `${where} example ${key}`);
          }
        }
      }
    }
  });

  test(`${api}: every operation has an id, a summary and an example of its success response`, {skip: !isOpenApi}, () => {
    for (const op of operations(api)) {
      const id = `${op.method} ${op.path}`;
      assert.ok(op.operation.operationId, `${id} has no operationId`);
      assert.ok(op.operation.summary, `${id} has no summary`);
      const responses = (op.operation.responses ?? {}) as Record<string, {$ref?: string; content?: Content}>;
      const success = Object.entries(responses).filter(([s]) => /^2/.test(s));
      assert.ok(success.length > 0, `${id} has no success response`);
      for (const [status, response] of success) {
        for (const [type, media] of Object.entries(deref(doc, response).content ?? {})) {
          assert.ok(Object.keys(media.examples ?? {}).length > 0, `${id} ${status} ${type} has no example`);
        }
      }
    }
  });

  test(`${api}: every property has a description`, () => {
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
      for (const [field, prop] of Object.entries(schema.properties ?? {})) {
        assert.ok((prop.description ?? deref(doc, prop).description ?? '').length > 5, `${name}.${field} has no description`);
      }
    }
  });
}

test('a broken example is reported with its path', () => {
  const problems = schemaCheck('v1', 'EnergySocketState')({power_on: 'yes', switch_lock: false, brightness: 300});
  assert.deepEqual(problems.sort(), ['/brightness must be <= 255', '/power_on must be boolean'].sort());
});

test('an unknown schema is a clear error', () => {
  assert.throws(() => schemaCheck('v1', 'NoSuchSchema'), /API "v1" has no schema "NoSuchSchema"/);
  assert.throws(() => loadApi('v9'), /unknown API "v9"; known APIs: v1/);
});
