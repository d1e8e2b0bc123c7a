// How the reader previews an attachment (issue 29 §1): decided from the sender's declared type and the name's
// extension, both untrusted. Pure, so the rules are tested in Node (preview-kind.test.ts).
import { previewImageBytes, previewPdfBytes, previewTextBytes } from '../../../shared/contract/limits.ts';

export type PreviewKind =
  // Shown as an <img> from a blob: of the bytes, typed as one of these raster types and nothing else.
  | { kind: 'image'; type: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'; maxBytes: number }
  | { kind: 'pdf'; maxBytes: number }
  // Shown as text in a <pre>, never as markup: HTML and SVG attachments too.
  | { kind: 'text'; maxBytes: number; markup: boolean }
  | { kind: 'none' };

const rasters = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
} as const;
type Raster = (typeof rasters)[keyof typeof rasters];
const rasterTypes = new Set<string>(Object.values(rasters));
const textExtensions = new Set([
  'txt',
  'text',
  'log',
  'csv',
  'tsv',
  'md',
  'json',
  'xml',
  'ics',
  'vcf',
  'eml',
  'ini',
]);
// XML as text (`application/xml`, `…+xml`); not Office's `openxmlformats` types, which are zips.
const xmlType = /^(application|text)\/xml$|\+xml$/;
const markupExtensions = new Set(['html', 'htm', 'xhtml', 'svg', 'svgz']);

export function previewKind(name: string, contentType: string): PreviewKind {
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  const dot = name.lastIndexOf('.');
  const extension = dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
  // SECURITY: markup is text here whatever it claims: an HTML or SVG attachment shown as a document could run
  // script or load remote resources; as characters in a <pre> it can do neither.
  if (
    markupExtensions.has(extension) ||
    type === 'text/html' ||
    type === 'image/svg+xml' ||
    xmlType.test(type)
  ) {
    const markup = markupExtensions.has(extension) || type === 'text/html' || type === 'image/svg+xml';
    return { kind: 'text', maxBytes: previewTextBytes, markup };
  }
  if (rasterTypes.has(type)) return { kind: 'image', type: type as Raster, maxBytes: previewImageBytes };
  if (extension in rasters && (type === 'application/octet-stream' || type === '')) {
    return { kind: 'image', type: rasters[extension as keyof typeof rasters], maxBytes: previewImageBytes };
  }
  if (type === 'application/pdf' || (extension === 'pdf' && !type.startsWith('image/'))) {
    return { kind: 'pdf', maxBytes: previewPdfBytes };
  }
  if (type.startsWith('text/') || textExtensions.has(extension)) {
    return { kind: 'text', maxBytes: previewTextBytes, markup: false };
  }
  return { kind: 'none' };
}
