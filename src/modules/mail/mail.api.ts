import type { ApiTag } from '../../http/openapi.ts';

export const mailTag: ApiTag = { name: 'mail', group: 'Back office', description: 'Operations on mail.' };
