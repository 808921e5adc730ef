import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 30000,
    hookTimeout: 60000,
    pool: 'forks',
    // Whatever a test file started (tare serve, CLI runs) is killed when the file ends.
    setupFiles: ['packages/server/test/support/child-processes-setup.ts'],
    // Gives the run an id for its migrated Citus template and drops it at the end (citus-template.ts).
    globalSetup: ['packages/server/test/support/citus-global-setup.ts'],
    // Type-level tests (*.test-d.ts) run through the TypeScript compiler as part of `npm test`.
    typecheck: { enabled: true, include: ['packages/*/test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
