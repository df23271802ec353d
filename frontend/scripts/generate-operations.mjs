// Writes src/api/operations.gen.ts from ../openapi.json: every operation's id, method and
// path template. The fetch mutator learns from it which operation a request is (orval
// hands it only the URL and method), so tables about operations (the default error
// texts of src/lib/api-error-messages.ts) are keyed by operation id, as the generated
// client names them. Run by `npm run generate:api`; `npm run check:api` fails if stale.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const frontend = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const contract = JSON.parse(fs.readFileSync(path.join(frontend, '..', 'openapi.json'), 'utf8'));
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const operations = [];
for (const [template, item] of Object.entries(contract.paths ?? {})) {
  for (const method of METHODS) {
    if (!item[method]) continue;
    const id = item[method].operationId;
    if (!id) throw new Error(`${method.toUpperCase()} ${template} has no operationId`);
    operations.push({ id, method: method.toUpperCase(), path: template });
  }
}
operations.sort((a, b) => a.id.localeCompare(b.id));

const lines = operations.map((op) => `  ${op.id}: { method: '${op.method}', path: '${op.path}' },`);
const out = `// Generated from ../openapi.json by scripts/generate-operations.mjs (npm run generate:api).
// Do not edit.

/** Every operation of the contract, by operation id: its method and path template. */
export const API_OPERATIONS = {
${lines.join('\n')}
} as const;

/** An operation id of the contract (\`operationId\` in openapi.json). */
export type OperationId = keyof typeof API_OPERATIONS;
`;
fs.writeFileSync(path.join(frontend, 'src', 'api', 'operations.gen.ts'), out);
console.log(`src/api/operations.gen.ts: ${operations.length} operations`);
