import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  answerFormat,
  COPY_WIDTHS,
  safeFileName,
  sniffFormat,
  widthsFor,
} from '../../src/modules/media/image-formats.ts';

describe('media formats, names and widths', () => {
  test('when any uploaded name is made safe, then it is a short name of letters, digits and dashes with the format’s extension', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 600, unit: 'binary' }), (name) => {
        const safe = safeFileName(name, 'webp');
        assert.match(safe, /^[a-z0-9]+(-[a-z0-9]+)*\.webp$|^image\.webp$/);
        assert.ok(safe.length <= 65);
        assert.ok(!safe.includes('..') && !safe.includes('/') && !safe.includes('\0'));
      }),
    );
  });

  test('when a name carries a directory, then only its base name is kept', () => {
    assert.equal(safeFileName('../../etc/Passwd.PNG', 'png'), 'passwd.png');
    assert.equal(safeFileName('C:\\Users\\me\\Été 2024.jpeg', 'jpeg'), 'ete-2024.jpg');
    assert.equal(safeFileName('...', 'gif'), 'image.gif');
  });

  test('when bytes are not one of the five formats, then no format is recognised', () => {
    const magic = [
      [0xff, 0xd8, 0xff],
      [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
      [0x47, 0x49, 0x46, 0x38],
      [0x52, 0x49, 0x46, 0x46],
    ];
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        fc.pre(
          !magic.some((m) => m.every((b, i) => bytes[i] === b)) && !(bytes.length > 8 && bytes[4] === 0x66),
        );
        assert.equal(sniffFormat(bytes), undefined);
      }),
    );
    assert.equal(sniffFormat(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), undefined);
    assert.equal(sniffFormat(Buffer.from('%PDF-1.7')), undefined);
  });

  test('when an AVIF or WebP header is read, then its format is named', () => {
    const avif = Buffer.from('\x00\x00\x00\x1cftypmif1\x00\x00\x00\x00mif1avifmiaf', 'latin1');
    assert.equal(sniffFormat(avif), 'avif');
    const heic = Buffer.from('\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic', 'latin1');
    assert.equal(sniffFormat(heic), undefined);
    assert.equal(sniffFormat(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1')), 'webp');
  });

  test('when format=auto, then AVIF wins over WebP, and without either the original stays', () => {
    assert.equal(answerFormat('auto', 'image/webp,image/avif', 'jpeg'), 'avif');
    assert.equal(answerFormat('auto', 'image/webp', 'png'), 'webp');
    assert.equal(answerFormat('auto', undefined, 'png'), 'png');
    assert.equal(answerFormat('jpeg', 'image/avif', 'png'), 'jpeg');
    assert.equal(answerFormat(undefined, 'image/avif', 'gif'), 'gif');
  });

  test('when widths are offered for an original, then none is wider than it, and one always is', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20_000 }), (width) => {
        const widths = widthsFor(width);
        assert.ok(widths.length >= 1);
        assert.ok(widths.every((w) => (COPY_WIDTHS as readonly number[]).includes(w)));
        assert.ok(widths.length === 1 || widths.every((w) => w <= width));
      }),
    );
  });
});
