// The reader's preview of an attachment by its declared type and name (issue 29 §1): raster images, PDFs and
// text; HTML and SVG as text only; anything else named with its type and size.
import { describe, expect, test } from 'vitest';
import { previewKind } from './preview-kind.ts';

describe('previewKind', () => {
  test.each([
    ['photo.jpg', 'image/jpeg', 'image/jpeg'],
    ['chart.png', 'image/png', 'image/png'],
    ['a.gif', 'image/GIF', 'image/gif'],
    ['b.webp', 'application/octet-stream', 'image/webp'],
  ])('%s (%s) is an image typed %s', (name, type, blobType) => {
    expect(previewKind(name, type)).toMatchObject({ kind: 'image', type: blobType });
  });

  test('a PDF by its type, or by its name when sent as bytes', () => {
    expect(previewKind('invoice.pdf', 'application/pdf').kind).toBe('pdf');
    expect(previewKind('invoice.PDF', 'application/octet-stream').kind).toBe('pdf');
  });

  test('HTML and SVG are text whatever they claim, and say they are markup', () => {
    expect(previewKind('page.html', 'text/html')).toMatchObject({ kind: 'text', markup: true });
    expect(previewKind('logo.svg', 'image/svg+xml')).toMatchObject({ kind: 'text', markup: true });
    expect(previewKind('logo.png', 'image/svg+xml')).toMatchObject({ kind: 'text', markup: true });
    expect(previewKind('x.svg', 'image/png')).toMatchObject({ kind: 'text', markup: true });
    expect(previewKind('notes.txt', 'text/plain')).toMatchObject({ kind: 'text', markup: false });
  });

  test('anything else has no preview', () => {
    expect(previewKind('setup.exe', 'application/x-msdownload').kind).toBe('none');
    expect(previewKind('archive.zip', 'application/zip').kind).toBe('none');
    expect(previewKind('report.docx', 'application/octet-stream').kind).toBe('none');
    expect(
      previewKind('budget.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet').kind,
    ).toBe('none');
    expect(previewKind('feed.xml', 'application/atom+xml')).toMatchObject({ kind: 'text', markup: false });
  });
});
