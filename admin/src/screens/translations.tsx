import { Box, Chip, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useEffect, useId, useState } from 'react';
import { FormDataConsumer, required, SelectInput, TextInput } from 'react-admin';
import { useShopDataProvider } from '../use-shop-data-provider.ts';

// The texts of an entity per locale (docs/translations.md), the one way every screen edits them:
// a tab per locale the shop serves (settings `locales`, the default locale first), the default
// locale's tab holding the fields themselves and every other tab `translations.<locale>.<field>`.
// A tab says how many of its texts are missing; a field without a text reads its default one.

export interface TranslatedField {
  /** The field's name in the record (`name`, `slug`, `options`...). */
  source: string;
  label: string;
  /** The default locale's text is required. */
  required?: boolean;
  multiline?: boolean;
  /**
   * A product's options: in another locale the same options in the same order, named in it (the
   * default locale's are edited by the screen's own options input).
   */
  options?: boolean;
}

type Values = Record<string, unknown>;

export interface ShopLocales {
  /** Every locale served, the default first. */
  locales: string[];
  defaultLocale: string;
}

/** A missing text's chip: dark on light amber (the theme's warning colours are too faint for small text). */
const MISSING_CHIP = { bgcolor: '#ffe0b2', color: '#5d2a00', fontWeight: 500 } as const;

const isRecord = (value: unknown): value is Values =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Until the API answers: the default locale alone (the fields themselves). */
const UNKNOWN: ShopLocales = { locales: ['en'], defaultLocale: 'en' };
/** One answer per page load, shared by every screen (a change of the settings shows after a reload). */
let asked: Promise<ShopLocales> | undefined;

/** The shop's locales (GET /rest/system/locales: settings `locales` and `default_locale`). */
export function useShopLocales(): ShopLocales {
  const provider = useShopDataProvider();
  const [served, setServed] = useState<ShopLocales | undefined>();
  useEffect(() => {
    let current = true;
    asked ??= provider.servedLocales().catch((error: unknown) => {
      asked = undefined;
      throw error;
    });
    asked.then((answer) => current && setServed(answer)).catch(() => current && setServed(UNKNOWN));
    return () => {
      current = false;
    };
  }, [provider]);
  return served ?? UNKNOWN;
}

interface Option {
  name?: unknown;
  values?: unknown;
}

/** Whether a locale's options name every option and value the product has. */
function optionsComplete(own: unknown, translated: unknown): boolean {
  if (!Array.isArray(own) || !Array.isArray(translated) || translated.length !== own.length) return false;
  return own.every((option: Option, i) => {
    const theirs = translated[i] as Option | undefined;
    const count = Array.isArray(option.values) ? option.values.length : 0;
    return Boolean(theirs?.name) && Array.isArray(theirs?.values) && theirs.values.filter(Boolean).length === count;
  });
}

/** The fields with a text of their own that have none in `locale` (what the tab and the list show). */
export function missingTranslations(record: Values, fields: readonly TranslatedField[], locale: string): string[] {
  const texts = isRecord(record.translations) ? record.translations[locale] : undefined;
  const theirs: Values = isRecord(texts) ? texts : {};
  return fields
    .filter((field) => {
      const own = record[field.source];
      if (field.options) return Array.isArray(own) && own.length > 0 && !optionsComplete(own, theirs.options);
      return typeof own === 'string' && own !== '' && !theirs[field.source];
    })
    .map((field) => field.label);
}

/** An option's values are edited as a comma-separated list. */
const valuesFormat = (values: unknown) => (Array.isArray(values) ? values.join(', ') : '');
const valuesParse = (text: string) =>
  text
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);

/** A product's options in another locale: a name and the values for each of its own, by position. */
function TranslatedOptions({ prefix, own }: { prefix: string; own: unknown }) {
  const options = Array.isArray(own) ? (own as Option[]).filter((o) => typeof o.name === 'string') : [];
  if (options.length === 0) return null;
  return (
    <Stack spacing={0}>
      {options.map((option, i) => (
        <Stack key={String(option.name)} direction="row" spacing={2}>
          <TextInput source={`${prefix}.options.${i}.name`} label={`Option “${String(option.name)}”`} />
          <TextInput
            source={`${prefix}.options.${i}.values`}
            label={`Values: ${valuesFormat(option.values)}`}
            format={valuesFormat}
            parse={valuesParse}
            fullWidth
          />
        </Stack>
      ))}
    </Stack>
  );
}

function LocaleInputs({ fields, locale, isDefault, record }: {
  fields: readonly TranslatedField[];
  locale: string;
  isDefault: boolean;
  record: Values;
}) {
  const prefix = `translations.${locale}`;
  return (
    <>
      {fields.map((field) => {
        if (field.options) {
          return isDefault ? null : <TranslatedOptions key={field.source} prefix={prefix} own={record[field.source]} />;
        }
        const own = record[field.source];
        return (
          <TextInput
            key={field.source}
            source={isDefault ? field.source : `${prefix}.${field.source}`}
            label={`${field.label} (${locale})`}
            validate={isDefault && field.required ? required() : undefined}
            helperText={!isDefault && typeof own === 'string' && own ? `Without one: “${own.slice(0, 80)}”` : undefined}
            multiline={field.multiline}
            minRows={field.multiline ? 3 : undefined}
            fullWidth
          />
        );
      })}
    </>
  );
}

/** The tab's label: the locale, and how many texts it misses. */
function LocaleLabel({ locale, isDefault, missing }: { locale: string; isDefault: boolean; missing: number }) {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <span>{isDefault ? `${locale} (default)` : locale}</span>
      {missing > 0 && <Chip size="small" sx={MISSING_CHIP} label={`${missing} missing`} />}
    </Stack>
  );
}

/** The translatable fields of a form, a tab per locale. */
export function TranslatableInputs({ fields }: { fields: readonly TranslatedField[] }) {
  const { locales, defaultLocale } = useShopLocales();
  const [chosen, setChosen] = useState<string | null>(null);
  const id = useId();
  const selected = chosen !== null && locales.includes(chosen) ? chosen : defaultLocale;
  return (
    <FormDataConsumer>
      {({ formData }) => (
        <Box component="section" aria-label="Texts per language" sx={{ width: '100%', mb: 2 }}>
          <Tabs value={selected} onChange={(_, code: string) => setChosen(code)} aria-label="Language of the texts">
            {locales.map((code) => (
              <Tab
                key={code}
                value={code}
                id={`${id}-tab-${code}`}
                aria-controls={`${id}-panel-${code}`}
                label={
                  <LocaleLabel
                    locale={code}
                    isDefault={code === defaultLocale}
                    missing={code === defaultLocale ? 0 : missingTranslations(formData, fields, code).length}
                  />
                }
              />
            ))}
          </Tabs>
          {locales.map((code) => (
            <Box
              key={code}
              role="tabpanel"
              id={`${id}-panel-${code}`}
              aria-labelledby={`${id}-tab-${code}`}
              hidden={code !== selected}
              sx={{ pt: 1 }}
            >
              <LocaleInputs fields={fields} locale={code} isDefault={code === defaultLocale} record={formData} />
            </Box>
          ))}
        </Box>
      )}
    </FormDataConsumer>
  );
}

/** A list's column: the locales a row misses texts in, one chip each (— when none). */
export function MissingTranslations({ record, fields }: { record: Values; fields: readonly TranslatedField[] }) {
  const { locales, defaultLocale } = useShopLocales();
  const missing = locales
    .filter((code) => code !== defaultLocale)
    .map((code) => [code, missingTranslations(record, fields, code)] as const)
    .filter(([, labels]) => labels.length > 0);
  if (missing.length === 0) return <Typography variant="body2">—</Typography>;
  return (
    <Stack direction="row" spacing={0.5}>
      {missing.map(([code, labels]) => (
        <Chip key={code} size="small" sx={MISSING_CHIP} label={`${code}: ${labels.join(', ')}`} />
      ))}
    </Stack>
  );
}

/** The "missing translations" filter of a list: the locales other than the default. */
export function MissingTranslationInput(props: { source: string; label?: string; alwaysOn?: boolean }) {
  const { locales, defaultLocale } = useShopLocales();
  const choices = locales.filter((code) => code !== defaultLocale).map((code) => ({ id: code, name: code }));
  return <SelectInput {...props} choices={choices} />;
}
