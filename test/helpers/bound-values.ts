import fc from 'fast-check';

/**
 * A text a client may send (any code points but NUL, which the database refuses itself) and a few
 * texts for an array parameter: what a statement's bound values must carry unchanged.
 */
export const boundTexts = fc.tuple(
  fc.string({ unit: 'binary' }).filter((s) => !s.includes('\0')),
  fc.array(
    fc.string({ unit: 'grapheme' }).filter((s) => !s.includes('\0')),
    { maxLength: 5 },
  ),
);
