import { defineConfig } from 'vite';

// The back office is served by the service at /admin (src/modules/admin-ui). JSX goes through
// esbuild's automatic runtime, so no React plugin is needed. The typed client is imported from its
// sources (packages/client/src), so the admin builds without the client's own build step.
export default defineConfig({
  base: '/admin/',
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    reportCompressedSize: false,
    rollupOptions: {
      output: {
        // One library chunk: react-admin's packages re-export each other in cycles that Rollup
        // would otherwise split across lazy chunks (a broken execution order); the screens stay lazy.
        manualChunks: (id) => (id.includes('node_modules') ? 'vendor' : undefined),
      },
      onwarn(warning, warn) {
        // MUI and react-query mark their modules "use client" (meant for server components).
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
