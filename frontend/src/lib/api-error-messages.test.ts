// @vitest-environment node
// The error-text tables against the contract: every key is an operation id of
// ../openapi.json, every operation that documents a failure has a default text or a
// stated reason for none, and the operation list the mutator matches requests with is
// the contract's own.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_OPERATIONS } from '../api/operations.gen';
import { OPERATION_ERROR_MESSAGES, OPERATIONS_WITHOUT_DEFAULT, operationErrorMessage } from './api-error-messages';

interface Operation {
  operationId?: string;
  responses?: Record<string, unknown>;
}

const contract = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
};
const operations = Object.entries(contract.paths).flatMap(([template, item]) =>
  Object.entries(item)
    .filter(([method]) => ['get', 'put', 'post', 'delete', 'patch'].includes(method))
    .map(([method, op]) => ({ id: op.operationId ?? '', method: method.toUpperCase(), path: template, responses: op.responses ?? {} })),
);
const ids = new Set(operations.map((op) => op.id));
/** A failure documented for the operation: any 4xx or 5xx answer. */
const documentsFailure = (op: (typeof operations)[number]) => Object.keys(op.responses).some((status) => /^[45]\d\d$/.test(status));

describe('operation error texts', () => {
  it('are keyed by operation ids of the contract', () => {
    const unknown = [...Object.keys(OPERATION_ERROR_MESSAGES), ...Object.keys(OPERATIONS_WITHOUT_DEFAULT)].filter((id) => !ids.has(id));
    expect(unknown, 'keys that are not an operationId in openapi.json').toEqual([]);
  });

  it('cover every operation that documents a failure: a default text or a reason for none, not both', () => {
    const failing = operations.filter(documentsFailure).map((op) => op.id);
    expect(failing.length).toBeGreaterThan(30);
    const withText = new Set(Object.keys(OPERATION_ERROR_MESSAGES));
    const withReason = new Set(Object.keys(OPERATIONS_WITHOUT_DEFAULT));
    expect(failing.filter((id) => !withText.has(id) && !withReason.has(id)), 'operations with neither').toEqual([]);
    expect([...withText].filter((id) => withReason.has(id)), 'operations with both').toEqual([]);
    for (const reason of Object.values(OPERATIONS_WITHOUT_DEFAULT)) expect(reason?.trim()).not.toBe('');
  });

  it("match requests with the contract's own operations (operations.gen.ts is not stale)", () => {
    const generated = Object.entries(API_OPERATIONS).map(([id, op]) => ({ id, method: op.method, path: op.path }));
    const fromContract = operations.map(({ id, method, path }) => ({ id, method, path }));
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    expect(generated.sort(byId), 'run `npm run generate:api`').toEqual(fromContract.sort(byId));
  });

  it("resolve a request to its operation's text, path parameters included", () => {
    for (const [id, message] of Object.entries(OPERATION_ERROR_MESSAGES)) {
      const op = API_OPERATIONS[id as keyof typeof API_OPERATIONS];
      const url = op.path.replace(/\{[^}]+\}/g, 'x1') + '?page=2';
      expect(operationErrorMessage(op.method, url), id).toBe(message);
    }
    expect(operationErrorMessage('POST', '/api/leads/sheets/validate')).toBe('Failed to validate spreadsheet');
    expect(operationErrorMessage('GET', '/api/leads/searches/s-1/events')).toBeUndefined();
  });
});
