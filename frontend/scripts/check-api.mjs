// Regenerates the orval client from ../openapi.json and fails if src/api/gen then
// differs from what git has (changed, new or deleted files). Read-only for git.
import { execFileSync } from 'node:child_process';

execFileSync('npx', ['orval'], { stdio: 'inherit' });
const status = execFileSync('git', ['status', '--porcelain', '--', 'src/api/gen'], { encoding: 'utf8' }).trim();
if (status) {
  console.error('\nsrc/api/gen is stale: run `npm run generate:api` and commit the result.\n');
  console.error(status);
  execFileSync('git', ['--no-pager', 'diff', '--stat', '--', 'src/api/gen'], { stdio: 'inherit' });
  process.exit(1);
}
console.log('src/api/gen matches openapi.json');
