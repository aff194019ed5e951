// The repository's own lint rules, run through ESLint on small texts placed where they apply:
// a client feature reaches another feature only through its index.ts.
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

async function restricted(code, filePath) {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.line);
}

describe('client feature folders', () => {
  const file = 'apps/web/src/features/header/probe.ts';
  it("refuse another feature's internal modules", async () => {
    const code = [
      "import { signOut } from '../auth/session.ts';",
      "import { x } from '../../features/auth/session.ts';",
      'export { signOut, x };',
    ].join('\n');
    expect(await restricted(code, file)).toEqual([1, 2]);
  });
  it("accept its index.ts, their own modules and the shared folders", async () => {
    const code = [
      "import { signOut } from '../auth/index.ts';",
      "import { Clock } from './clock.tsx';",
      "import { api } from '../../api/http.ts';",
      "import { CollectionList } from '../../ui/collection/collection-list.tsx';",
      'export { signOut, Clock, api, CollectionList };',
    ].join('\n');
    expect(await restricted(code, file)).toEqual([]);
  });
  it('leave the app free to wire features', async () => {
    expect(await restricted("import { signOut } from '../features/auth/session.ts';\nexport { signOut };", 'apps/web/src/app/probe.ts')).toEqual([]);
  });
});
