import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Sessions } from './sessions.ts';
import type { AccessTokens } from './tokens.ts';

/** What the authentication use cases work with, made once by the auth plugin. */
export interface AuthDeps {
  db: Db;
  tokens: AccessTokens;
  sessions: Sessions;
  config: Config;
}
