import type { Scenario } from './types.ts';

export const platformScenarios: Scenario[] = [
  {
    group: 'platform',
    name: 'static JSON route (full stack)',
    engines: ['pglite'],
    target: 0.28,
    request: () => ({ path: '/health/live' }),
  },
  {
    group: 'platform',
    name: 'static JSON route + verified customer JWT',
    engines: ['pglite'],
    target: 0.22,
    setup: async (ctx) => {
      ctx.state.customerToken = await ctx.customerToken();
    },
    request: (ctx) => ({
      path: '/health/live',
      headers: { authorization: `Bearer ${ctx.state.customerToken}` },
    }),
  },
];
