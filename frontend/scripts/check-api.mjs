// Regenerates the orval client and the operation list (src/api/operations.gen.ts) from
// ../openapi.json and fails if either then differs from what git has (changed, new or
// deleted files). Read-only for git.
import { execFileSync } from 'node:child_process';

execFileSync('npx', ['orval'], { stdio: 'inherit' });
execFileSync('node', ['scripts/generate-operations.mjs'], { stdio: 'inherit' });
const GENERATED = ['src/api/gen', 'src/api/operations.gen.ts'];
const status = execFileSync('git', ['status', '--porcelain', '--', ...GENERATED], { encoding: 'utf8' }).trim();
if (status) {
  console.error('\nThe generated client is stale: run `npm run generate:api` and commit the result.\n');
  console.error(status);
  execFileSync('git', ['--no-pager', 'diff', '--stat', '--', ...GENERATED], { stdio: 'inherit' });
  process.exit(1);
}
console.log('src/api/gen and src/api/operations.gen.ts match openapi.json');
