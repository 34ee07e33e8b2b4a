import { defineConfig } from 'vitest/config';

// Generous timeouts: CI runs the packages' suites side by side on a 2-core machine, with real processes and
// Chromium. Speed is measured by packages/bench, never by test timeouts.
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
