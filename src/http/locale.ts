import type { FastifyInstance, FastifyRequest } from 'fastify';

// The language a request asks for, read once and in one place (docs/translations.md): `?locale=`
// first, else the languages of `Accept-Language` by quality, each reduced to its primary subtag
// (`el-GR` → `el`). Which of them the shop serves is decided by the read against the live settings
// `locales` and `default_locale`; what was asked is `request.locale`, the key a cache of answers
// takes beside the URL.

/** What a request asks for; `served` is set by the read that settled it. */
export interface LocaleRequest {
  /** `?locale=` lower-cased, reduced to its primary subtag; null when absent. */
  explicit: string | null;
  /** Accept-Language's languages, best first, without duplicates, `*` and zero qualities. */
  accepted: string[];
  /** The locale the answer is in, once a read has settled it (Content-Language). */
  served?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The locale the request asks for (parsed on first use). */
    locale: LocaleRequest;
  }
}

/** Longest Accept-Language header read; longer ones are cut (a browser sends a few dozen bytes). */
const MAX_HEADER = 500;
const MAX_LANGUAGES = 10;

/** `el-GR` → `el`; null for a tag that is no language. */
export function primaryLanguage(tag: string): string | null {
  const primary = tag.trim().toLowerCase().split('-')[0] ?? '';
  return /^[a-z]{2,3}$/.test(primary) ? primary : null;
}

/** Accept-Language's languages by quality (stable for equal qualities), primary subtags only. */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  const ranked: { language: string; quality: number; at: number }[] = [];
  header
    .slice(0, MAX_HEADER)
    .split(',')
    .slice(0, MAX_LANGUAGES * 2)
    .forEach((part, at) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q === undefined ? 1 : Number(q.slice(2));
      const language = primaryLanguage(tag);
      if (language && Number.isFinite(quality) && quality > 0) ranked.push({ language, quality, at });
    });
  ranked.sort((a, b) => b.quality - a.quality || a.at - b.at);
  return [...new Set(ranked.map((r) => r.language))].slice(0, MAX_LANGUAGES);
}

function parse(request: FastifyRequest): LocaleRequest {
  const query = request.query as Record<string, unknown> | undefined;
  const asked = query?.locale;
  const explicit = typeof asked === 'string' && asked !== '' ? asked.toLowerCase().split('-')[0] : null;
  const header = request.headers['accept-language'];
  return { explicit: explicit ?? null, accepted: acceptedLanguages(header) };
}

const parsed = new WeakMap<FastifyRequest, LocaleRequest>();

/** Makes `request.locale` available on every request, parsed on first use. */
export function decorateLocale(app: FastifyInstance): void {
  app.decorateRequest('locale', {
    getter(this: FastifyRequest): LocaleRequest {
      let locale = parsed.get(this);
      if (!locale) {
        locale = parse(this);
        parsed.set(this, locale);
      }
      return locale;
    },
  });
}

/** A cache key part for what the request asks: the same for every request answered alike. */
export function localeKey(locale: LocaleRequest): string {
  return locale.explicit !== null ? `=${locale.explicit}` : locale.accepted.join(',');
}
