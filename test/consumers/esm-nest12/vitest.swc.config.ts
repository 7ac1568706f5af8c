import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// The NestJS docs' recipe (Recipes > SWC > Vitest): SWC compiles the TypeScript, decorator metadata
// included, in place of Vitest's own transform (which older Vitest versions ran without metadata).
export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  test: {
    globals: true,
    root: './',
    include: ['src/**/*.spec.ts'],
  },
});
