// One tool call checked and run (DESIGN §7): the path every call takes, whoever made it. The engine settles a
// model's round with it (engine.ts), and `skimmer mcp` an outside agent's call (electron/mcp/): parse the
// arguments with the tool's schema, ask the gate (with the rules no gate can loosen), and run the tool with its
// untrusted output wrapped. Nothing here knows who asked or who answers an approval.

import { suspectInjection } from '../../text/injection.ts';
import type { ProvenanceTracker } from '../safety/provenance.ts';
import { WrappedUntrusted, wrapUntrusted } from '../safety/untrusted.ts';
import {
  type AnyTool,
  callEffect,
  type GateDecision,
  type Provenance,
  type ToolOutput,
} from '../tools/tool.ts';

/** What the gate made of one call, before anyone was asked. */
export type CheckedCall =
  /** No such tool, or arguments its schema refuses: nothing runs, `output` says why. */
  | { kind: 'invalid'; output: string }
  /** The parsed arguments, where they came from, and the gate's decision. */
  | { kind: 'checked'; tool: AnyTool; args: unknown; provenance: Provenance; gate: GateDecision };

/** Parses and gates one call. Pure apart from reading provenance. */
export function checkCall(
  tools: ReadonlyMap<string, AnyTool>,
  name: string,
  input: unknown,
  provenance: ProvenanceTracker,
): CheckedCall {
  const tool = tools.get(name);
  if (!tool) return { kind: 'invalid', output: `There is no tool named ${name}.` };
  const parsed = tool.schema.safeParse(input);
  if (!parsed.success) {
    return {
      kind: 'invalid',
      output: `The arguments for ${name} are not valid: ${describeIssues(parsed.error.issues)}`,
    };
  }
  const origin = provenance.of(parsed.data);
  return {
    kind: 'checked',
    tool,
    args: parsed.data,
    provenance: origin,
    gate: gateDecision(tool, parsed.data, origin),
  };
}

/** The gate's decision, with the rules no gate can loosen. */
export function gateDecision(tool: AnyTool, args: unknown, provenance: Provenance): GateDecision {
  const effect = callEffect(tool, args);
  const decided = tool.gate ? tool.gate(args, provenance) : effect === 'read' ? 'allow' : 'approve';
  // SECURITY: sending and deleting always ask the user (DESIGN §7); a gate may only make them stricter. The
  // call's own effect counts: a move into the Trash is a delete, whatever grant covers moves.
  if ((effect === 'send' || effect === 'delete') && decided === 'allow') return 'approve';
  // SECURITY: a change that names someone (or a link) the user never wrote always asks, whatever a gate, a
  // grant or an approval policy allows: a draft to an address an email supplied is how mail leaks (§7).
  if (effect !== 'read' && provenance.notNamedByUser.length > 0 && decided === 'allow') return 'approve';
  return decided;
}

function describeIssues(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues
    .map((i) => (i.path.length > 0 ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
    .join('; ');
}

/**
 * A tool's output as the model reads it. SECURITY: untrusted output reaches the model only inside untrusted
 * blocks, and what is already wrapped is known by its type, never by what the text contains: a subject
 * holding `<untrusted_email>` once made a whole search result skip its block (DESIGN §8).
 */
function modelText(source: string, outcome: ToolOutput): string {
  if (!outcome.untrusted) return outcome.output;
  if (outcome.output instanceof WrappedUntrusted) return outcome.output.text;
  return wrapUntrusted(source, outcome.output, suspectInjection(outcome.output).suspect);
}

export const CANCELLED = 'Cancelled: the user stopped the run before this call finished.';

/**
 * Runs a checked call. Untrusted output comes back inside an untrusted block and is remembered by
 * `provenance`; a failure is an error result, never a throw; Stop answers at once, even if the tool ignores it.
 */
export async function runTool(
  tool: AnyTool,
  args: unknown,
  signal: AbortSignal,
  provenance: ProvenanceTracker,
): Promise<{ output: string; isError: boolean }> {
  if (signal.aborted) return { output: CANCELLED, isError: true };
  let onAbort = () => {};
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const outcome = await Promise.race([tool.run(args, { signal }), aborted]);
    if (outcome === 'aborted') return { output: CANCELLED, isError: true };
    const output = modelText(tool.name, outcome);
    if (outcome.untrusted) provenance.addUntrusted(output);
    return { output, isError: false };
  } catch (e) {
    if (signal.aborted) return { output: CANCELLED, isError: true };
    return { output: `The tool failed: ${e instanceof Error ? e.message : String(e)}`, isError: true };
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
