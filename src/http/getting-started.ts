import { readFileSync } from 'node:fs';

/** docs/getting-started.md, put in by the server build (scripts/build.mjs); absent when run from src. */
declare const __GETTING_STARTED__: string | undefined;

/**
 * The getting-started page (docs/getting-started.md), shown by /docs as the document's
 * info.description. The bundle carries the text, so dist/server.mjs needs no docs/ folder beside
 * it; from the sources it is read from the repository. Its first heading is left out: Swagger UI
 * already shows the document's title above it.
 */
export function gettingStarted(): string {
  const text =
    typeof __GETTING_STARTED__ === 'string'
      ? __GETTING_STARTED__
      : readFileSync(new URL('../../docs/getting-started.md', import.meta.url), 'utf8');
  return text.replace(/^# .*\n+/, '');
}
