// A tool the engine may call (DESIGN §7), and the JSON schema the providers are sent for it. Some
// providers keep only a flat root schema (no `$defs`/`$ref`), so `toolSpec` inlines every reference it
// can; a recursive schema cannot be inlined and is reported instead of being sent half-resolved.
import { z } from 'zod';
import type { ToolSpec } from '../protocol/request.ts';
import type { WrappedUntrusted } from '../safety/untrusted.ts';

export type ToolEffect = 'read' | 'write' | 'send' | 'delete';
export type GateDecision = 'allow' | 'approve' | 'deny';

/** Per argument path (`to`, `cc[0]`, `body`): which string values hold text seen only in untrusted results. */
export type Provenance = {
  /** Argument paths whose text appeared in untrusted tool results and not in the user's own words. */
  fromUntrusted: string[];
  /** Destinations (addresses, links, hosts) in the arguments that the user never wrote: a change asks. */
  notNamedByUser: string[];
};

/**
 * What a tool gives back, told apart by type (DESIGN §8): Skimmer's own words; text from mail, which the call path
 * always wraps (`runTool`); or blocks the tool already wrapped, which only `WrappedUntrusted` can make.
 */
export type ToolOutput =
  | { output: string; untrusted?: false }
  | { output: string; untrusted: true }
  | { output: WrappedUntrusted; untrusted: true };

/** How a call ended up, as the audit log records it. */
export type CallDecision = 'allowed' | 'approved' | 'denied' | 'auto-denied' | 'invalid' | 'cancelled';

/** What an approval card shows of a call: a title and one line per message or change, written by Skimmer. */
export type CallPreview = { title: string; lines: string[] };

export type Tool<A = unknown> = {
  name: string;
  description: string;
  schema: z.ZodType<A>;
  effect: ToolEffect;
  /** Pure. Without one: read → allow, everything else → approve. `send`/`delete` never end up `allow`. */
  gate?: (args: A, provenance: Provenance) => GateDecision;
  run: (args: A, ctx: { signal: AbortSignal }) => Promise<ToolOutput>;
  /** The approval card's preview of a call with these (valid) arguments. Reads only. */
  preview?: (args: A) => CallPreview;
  /**
   * The effect of one call, when its arguments make it more than `effect` (a move into the Trash is a delete).
   * Reads only. `callEffect` keeps it from ever being less than `effect`.
   */
  effectOf?: (args: A) => ToolEffect;
};

const strictness: Record<ToolEffect, number> = { read: 0, write: 1, send: 2, delete: 2 };

/**
 * What one call does, for every gate, grant, policy and card (DESIGN §7). SECURITY: arguments can only make a call
 * stricter than its tool's effect, never looser.
 */
export function callEffect(tool: AnyTool, args: unknown): ToolEffect {
  const own = tool.effectOf?.(args) ?? tool.effect;
  return strictness[own] > strictness[tool.effect] ? own : tool.effect;
}

/** Lets a list hold tools of different argument types without `any`. */
// biome-ignore lint/suspicious/noExplicitAny: the argument type is checked by each tool's own schema.
export type AnyTool = Tool<any>;

export type FlattenResult = { ok: true; schema: Record<string, unknown> } | { ok: false; error: string };

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Inlines local `$ref`s (`#/$defs/X`, `#/definitions/X`) and drops `$defs` and `$schema`. A reference back
 * to the root (`#`) or to a definition being inlined is recursion, which no flat schema can express.
 */
export function flattenSchema(schema: Json): FlattenResult {
  const defs: Json = { ...(isObject(schema.definitions) ? schema.definitions : {}) };
  Object.assign(defs, isObject(schema.$defs) ? schema.$defs : {});
  const failure: { error: string | null } = { error: null };

  const visit = (node: unknown, stack: readonly string[]): unknown => {
    if (failure.error) return node;
    if (Array.isArray(node)) return node.map((item) => visit(item, stack));
    if (!isObject(node)) return node;
    if (typeof node.$ref === 'string') {
      const ref = node.$ref;
      const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref)?.[1];
      if (ref === '#' || (name !== undefined && stack.includes(name))) {
        failure.error = `The schema is recursive (${ref}), and a flat schema cannot express recursion.`;
        return node;
      }
      const target = name === undefined ? undefined : defs[decodeURIComponent(name)];
      if (name === undefined || !isObject(target)) {
        failure.error = `The schema refers to ${ref}, which it does not define.`;
        return node;
      }
      const { $ref: _ref, ...siblings } = node;
      const inlined = visit(target, [...stack, name]) as Json;
      return { ...inlined, ...(visit(siblings, stack) as Json) };
    }
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) out[key] = visit(value, stack);
    return out;
  };

  const { $defs: _defs, definitions: _definitions, $schema: _schema, ...root } = schema;
  const flat = visit(root, []) as Json;
  return failure.error ? { ok: false, error: failure.error } : { ok: true, schema: flat };
}

/**
 * The provider-neutral spec of a tool. Tools are defined in code, so a schema that cannot be sent is a
 * bug: this throws, naming the tool and the reason.
 */
export function toolSpec(tool: AnyTool): ToolSpec {
  let generated: Json;
  try {
    // `io: 'input'`: the model writes the input side (a field with a default is optional to it).
    generated = z.toJSONSchema(tool.schema, { io: 'input' }) as Json;
  } catch (e) {
    throw new Error(`Tool ${tool.name}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const flat = flattenSchema(generated);
  if (!flat.ok) throw new Error(`Tool ${tool.name}: ${flat.error}`);
  return { name: tool.name, description: tool.description, inputSchema: flat.schema };
}
