// @vitest-environment node
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The architecture lint (eslint.config.js) run on source text placed, virtually, in the
// folders it is about. The imports name real files, since the rule resolves them.

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function boundaryErrors(path: string, source: string) {
  const [result] = await eslint.lintText(source, { filePath: `${root}/${path}` });
  return result.messages.filter((m) => m.ruleId === 'boundaries/dependencies').map((m) => m.message);
}

describe('feature folders do not import each other', () => {
  it('flags a feature importing another feature, however the path is written', async () => {
    const errors = await boundaryErrors(
      'src/features/billing/__fixture__.ts',
      [
        "import { canStartSearch } from '../search/search-form-rules';",
        "import { greetingName } from '../../features/dashboard/greeting';",
        "export { isSettingsTab } from '../settings/settings-tabs';",
        "export const later = () => import('../export/export-outcome');",
        'export const used = [canStartSearch, greetingName];',
      ].join('\n'),
    );
    expect(errors).toHaveLength(4);
    expect(errors[0]).toMatch(/Feature folders must not import each other \(billing imports search\)/);
    expect(errors[1]).toMatch(/billing imports dashboard/);
  });

  it('lets a feature import its own files, shared code, the generated client and packages', async () => {
    const errors = await boundaryErrors(
      'src/features/billing/__fixture__.ts',
      [
        "import { useQueryClient } from '@tanstack/react-query';",
        "import { isFreeTier } from './usage-level';",
        "import { Card } from '../../components/ui/card';",
        "import { apiFetch } from '../../lib/api-fetch';",
        "import { useGetUsage } from '../../api/gen/leads/leads';",
        'export const used = [useQueryClient, isFreeTier, Card, apiFetch, useGetUsage];',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  });

  it('keeps shared code and features from importing routes or features', async () => {
    expect(
      await boundaryErrors('src/lib/__fixture__.ts', "export { SearchForm } from '../features/search/search-form';"),
    ).toEqual([expect.stringMatching(/Shared code .* must not import a feature or a route/)]);
    expect(
      await boundaryErrors('src/components/__fixture__.ts', "export { Route } from '../routes/index';"),
    ).toHaveLength(1);
    expect(
      await boundaryErrors('src/features/search/__fixture__.ts', "export { Route } from '../../routes/index';"),
    ).toEqual([expect.stringMatching(/A feature must not import a route/)]);
  });

  it('lets routes compose features', async () => {
    const errors = await boundaryErrors(
      'src/routes/__fixture__.tsx',
      "export { SearchForm } from '../features/search/search-form';\nexport { UsageWidget } from '../features/billing/usage-card';",
    );
    expect(errors).toEqual([]);
  });

  it('the source tree has no violations', async () => {
    const results = await eslint.lintFiles(['src']);
    const problems = results.flatMap((r) => r.messages.map((m) => `${r.filePath}:${m.line} ${m.message}`));
    expect(problems).toEqual([]);
    // Linting the whole tree takes seconds on two busy cores: more than the default 5 s.
  }, 60_000);
});
