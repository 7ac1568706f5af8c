import { defineConfig } from 'vitest/config';

// As `nest new` (NestJS 12, ESM) sets Vitest up. Nest's dependency injection and @mocapi/nestjs's
// DTO schemas read decorator metadata (design:paramtypes): Vitest 5's own TypeScript transform (Oxc,
// through Vite 8) emits it. vitest.swc.config.ts is the other set-up, the NestJS docs' unplugin-swc.
export default defineConfig({
  test: {
    globals: true,
    root: './',
    include: ['src/**/*.spec.ts'],
  },
});
