// The longest request a channel's schema accepts, built from the schema's own bounds (its JSON Schema, the
// input side, as zod writes it). The browser mode's frame limit must hold the largest valid request of every
// channel (shared/ws-protocol.ts); this is how a test finds it. A field without a bound has no largest
// value, and building it throws, naming the field.
//
// Each value is chosen so that its JSON is at least as long as that of any value the field accepts:
// - a string of maxLength U+0001 characters: JSON.stringify writes each as `\u0001`, six bytes, the most
//   any UTF-16 unit takes (a character outside the BMP is two units in four bytes); U+0001 is not
//   whitespace, so a `.trim()` keeps it. An email is ASCII that JSON never escapes, so the longest is
//   maxLength letters and a domain. A string with a pattern gets the same six-byte filling: longer than
//   anything the pattern allows, so not itself valid;
// - an integer: whichever bound is written longer; any other number: 25 characters
//   (`-0.0000012345678901234567`), the longest a double is written, when the range allows it;
// - every optional field present, every array at maxItems, the longest option of a union;
// - for a field the contract caps as a whole (`maxJsonBytes` in its metadata), a stand-in that long.
// Keys a schema does not declare are not counted: zod strips them, and no page of ours sends them. Neither
// is whitespace around a string the schema trims before it checks the length.
import { z } from 'zod';

type JsonSchema = {
  type?: string;
  const?: unknown;
  enum?: unknown[];
  format?: string;
  contentEncoding?: string;
  pattern?: string;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  maxItems?: number;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  maxJsonBytes?: number;
};

const longestNumber = -0.0000012345678901234567;

export function largestRequest(schema: z.ZodType): { value: unknown; valid: boolean } {
  const root = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  let valid = true;

  function build(s: JsonSchema, at: string): unknown {
    if (s.$ref) {
      const name = s.$ref.replace('#/$defs/', '');
      const target = root.$defs?.[name];
      if (!target) throw new Error(`${at}: cannot follow ${s.$ref}`);
      return build(target, at);
    }
    if (s.maxJsonBytes !== undefined) {
      // A field capped as a whole (`.meta({ maxJsonBytes })` beside the check): a stand-in of that length.
      valid = false;
      return 'x'.repeat(s.maxJsonBytes - 2);
    }
    if ('const' in s) return s.const;
    if (s.enum) return longest(s.enum);
    const options = s.anyOf ?? s.oneOf;
    if (options) return longest(options.map((o, i) => build(o, `${at}|${i}`)));
    switch (s.type) {
      case 'string':
        if (s.maxLength === undefined) throw new Error(`${at}: a string without a maximum length`);
        if (s.format === 'email') return `${'a'.repeat(s.maxLength - 12)}@example.com`;
        // Base64 is ASCII: its longest valid value is as long in JSON as it is long.
        if (s.contentEncoding === 'base64') return 'A'.repeat(s.maxLength - (s.maxLength % 4));
        if (s.pattern !== undefined) valid = false;
        return '\u0001'.repeat(s.maxLength);
      case 'integer':
        return longest([
          s.minimum ?? (s.exclusiveMinimum ?? -Number.MAX_SAFE_INTEGER - 1) + 1,
          s.maximum ?? (s.exclusiveMaximum ?? Number.MAX_SAFE_INTEGER + 1) - 1,
        ]);
      case 'number': {
        const low = s.minimum ?? s.exclusiveMinimum ?? -Infinity;
        const high = s.maximum ?? s.exclusiveMaximum ?? Infinity;
        const inRange = [longestNumber, -longestNumber].filter((n) => n > low && n < high);
        return longest([...inRange, ...[low, high].filter(Number.isFinite)]);
      }
      case 'boolean':
        return false;
      case 'null':
        return null;
      case 'array': {
        if (s.prefixItems) throw new Error(`${at}: tuples are not measured`);
        if (s.maxItems === undefined || !s.items) throw new Error(`${at}: an array without a maximum length`);
        const item = build(s.items, `${at}[]`);
        return Array.from({ length: s.maxItems }, () => item);
      }
      case 'object': {
        if (typeof s.additionalProperties === 'object') throw new Error(`${at}: a record without bounds`);
        return Object.fromEntries(
          Object.entries(s.properties ?? {}).map(([key, p]) => [key, build(p, `${at}.${key}`)]),
        );
      }
      default:
        throw new Error(`${at}: accepts any value`);
    }
  }

  const value = build(root, 'request');
  return { value, valid };
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

function longest<T>(values: readonly T[]): T {
  let best = values[0] as T;
  for (const v of values) if (jsonBytes(v) > jsonBytes(best)) best = v;
  return best;
}
