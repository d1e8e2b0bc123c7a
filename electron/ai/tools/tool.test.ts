import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { type AnyTool, flattenSchema, toolSpec } from './tool.ts';

function toolWith(schema: z.ZodType): AnyTool {
  return { name: 'probe', description: 'Probes.', schema, effect: 'read', run: async () => ({ output: '' }) };
}

// A reused schema registered with an id: zod puts it in $defs and refers to it.
const Address = z.email().meta({ id: 'EngineTestAddress' });

type TreeNode = { name: string; children: TreeNode[] };
const Tree: z.ZodType<TreeNode> = z.object({
  name: z.string(),
  get children() {
    return z.array(Tree);
  },
});
type Chain = { v: string; next?: Chain };
const Link: z.ZodType<Chain> = z.object({
  v: z.string(),
  get next() {
    return Link.optional();
  },
});

describe('toolSpec', () => {
  test('sends the name, the description and a plain object schema without $schema', () => {
    const spec = toolSpec(toolWith(z.object({ query: z.string().describe('What to look for') })));
    expect(spec).toEqual({
      name: 'probe',
      description: 'Probes.',
      inputSchema: {
        type: 'object',
        properties: { query: { type: 'string', description: 'What to look for' } },
        required: ['query'],
      },
    });
  });

  test('makes a field with a default optional, as the model writes the input side', () => {
    const spec = toolSpec(toolWith(z.object({ limit: z.number().default(20) })));
    expect(spec.inputSchema.required).toBeUndefined();
    expect(spec.inputSchema.properties).toEqual({ limit: { type: 'number', default: 20 } });
  });

  test('inlines every $ref to a shared definition and drops $defs', () => {
    const spec = toolSpec(toolWith(z.object({ to: Address, cc: z.array(Address) })));
    const text = JSON.stringify(spec.inputSchema);
    expect(text).not.toContain('$ref');
    expect(text).not.toContain('$defs');
    const properties = spec.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(properties.to).toMatchObject({ type: 'string', format: 'email' });
    expect(properties.cc?.items).toMatchObject({ type: 'string', format: 'email' });
  });

  test.each([
    ['a schema that refers to its own root', Tree],
    ['a nested definition that refers to itself', z.object({ head: Link })],
  ])('reports %s as recursive instead of sending it', (_name, schema) => {
    expect(() => toolSpec(toolWith(schema))).toThrow(/Tool probe: The schema is recursive/);
  });

  test('reports a type JSON schema cannot express, naming the tool', () => {
    expect(() => toolSpec(toolWith(z.object({ when: z.date() })))).toThrow(/^Tool probe: .*Date/);
  });
});

describe('flattenSchema', () => {
  test.each([
    [
      'a ref with sibling keywords keeps them',
      { properties: { a: { $ref: '#/$defs/S', description: 'A' } }, $defs: { S: { type: 'string' } } },
      { properties: { a: { type: 'string', description: 'A' } } },
    ],
    [
      'draft-07 definitions are inlined too',
      { items: { $ref: '#/definitions/N' }, definitions: { N: { type: 'number' } } },
      { items: { type: 'number' } },
    ],
    [
      'a definition used inside another definition',
      {
        properties: { p: { $ref: '#/$defs/P' } },
        $defs: { P: { type: 'object', properties: { s: { $ref: '#/$defs/S' } } }, S: { type: 'string' } },
      },
      { properties: { p: { type: 'object', properties: { s: { type: 'string' } } } } },
    ],
  ])('inlines: %s', (_name, input, expected) => {
    expect(flattenSchema(input)).toEqual({ ok: true, schema: expected });
  });

  test('reports a reference to a definition that is not there', () => {
    expect(flattenSchema({ properties: { a: { $ref: '#/$defs/Missing' } } })).toEqual({
      ok: false,
      error: 'The schema refers to #/$defs/Missing, which it does not define.',
    });
  });

  test('reports definitions that refer to each other in a cycle', () => {
    const result = flattenSchema({
      properties: { a: { $ref: '#/$defs/A' } },
      $defs: { A: { properties: { b: { $ref: '#/$defs/B' } } }, B: { items: { $ref: '#/$defs/A' } } },
    });
    expect(result).toEqual({
      ok: false,
      error: 'The schema is recursive (#/$defs/A), and a flat schema cannot express recursion.',
    });
  });
});
