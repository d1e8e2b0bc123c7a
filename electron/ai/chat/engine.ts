// The tool-using engine (DESIGN §7): asks the model, settles the tool calls it makes, and asks again until
// the model answers without calls, a call needs the user's approval, or the run fails or is stopped.
//
// Decisions taken here (and tested in engine.test.ts):
// - A round with any call that needs approval holds ALL its calls: nothing of that round runs until the
//   user answers, so the user approves a round before any of it takes effect, and storage stays
//   append-only (the results of a round always go in one user turn, the one the next run writes).
//   Calls that were allowed, denied or invalid are settled again when the run resumes.
// - Stop ends the run with `error` {code: 'cancelled'}: the contract keeps three terminal events
//   (`interrupted`, `done`, `error`), and `cancelled` is already the model services' code for Stop.
//   Text that arrived is kept; every open call is answered "cancelled" so the turns stay pairable.
// - Every terminal event carries the new turns to store and the run's status, so a caller commits them
//   in one transaction when it sees the terminal event and stores nothing before.
// - `maxTurns` counts model requests. Calls of the last allowed request are still settled (pairing), then
//   the run ends with `error` {code: 'max_turns'}.
// - An interrupted round lists the calls that need an answer and, marked `held`, the side-effecting calls
//   of the same round that were already allowed: they run when the round is answered, so the user sees
//   them on the card and may deny them too.
// - With a `budget`, each request sends the history trimmed by whole turns (protocol/budget.ts); what is
//   stored is never trimmed.
// - SECURITY: every call gets Skimmer's own id (call-ids.ts), unique in the conversation; the provider's id
//   is kept only for the wire. An answer applies to the call with its id AND the hash of its arguments, and
//   to one call only: a model that names two calls alike can never get both approved by one answer.

import { estimateTokens, type TrimOptions, trimHistory } from '../protocol/budget.ts';
import { type AiErrorCode, aiErrorMessages } from '../protocol/errors.ts';
import { type AiEvent, noticeMessage } from '../protocol/events.ts';
import type { Block, Turn } from '../protocol/messages.ts';
import type { ModelRequest, ToolSpec } from '../protocol/request.ts';
import { ProvenanceTracker } from '../safety/provenance.ts';
import { untrustedNote } from '../safety/untrusted.ts';
import type { AnyTool, CallDecision, Provenance } from '../tools/tool.ts';
import { toolSpec } from '../tools/tool.ts';
import { CANCELLED, checkCall, runTool } from './call-gate.ts';
import { argsHash, newCallId } from './call-ids.ts';

/** The user's answer to one call: Skimmer's id for it and the hash of its arguments (`PendingCall`). */
export type Answer = { id: string; argsHash: string; decision: 'approve' | 'deny'; reason?: string };

export type EngineRequest = {
  model: string;
  /** One model turn as neutral events; `streamModel` bound to a connection in the app, a script in tests. */
  stream: (request: ModelRequest, signal: AbortSignal) => AsyncIterable<AiEvent>;
  system?: string;
  /** The stored conversation. When it ends with open calls, this run settles them first. */
  history: readonly Turn[];
  /** The user's new words; absent when the run only answers the calls that interrupted the last one. */
  prompt?: string;
  /** Quoted mail, each already a `wrapUntrusted` block, sent before the prompt in the same user turn. */
  context?: readonly string[];
  tools: readonly AnyTool[];
  answers?: readonly Answer[];
  maxTurns?: number;
  maxOutputTokens?: number;
  /** The model's window: each request's history is trimmed to fit it. */
  budget?: Pick<TrimOptions, 'maxInputTokens' | 'reserveOutputTokens'>;
  signal?: AbortSignal;
  /** Names each new call; `newCallId` (random) unless a test needs ids it can write down. */
  newCallId?: (taken: ReadonlySet<string>) => string;
};

/** A call of an interrupted round: `held` when it was allowed and runs once the round is answered. */
export type PendingCall = {
  id: string;
  /** What an answer to this call must carry (call-ids.ts): the hash of the arguments as the model sent them. */
  argsHash: string;
  name: string;
  args: unknown;
  provenance: Provenance;
  held: boolean;
};
type EngineErrorCode = AiErrorCode | 'max_turns';
type EngineStatus = 'done' | 'interrupted' | 'error';
/** What a caller stores, in one transaction: the turns to append to the conversation. */
export type EngineResult = { status: EngineStatus; turns: Turn[]; usage: Usage | null };
type Usage = { inputTokens: number; outputTokens: number };

export type EngineEvent =
  | { type: 'text'; text: string }
  | { type: 'tool_call'; id: string; name: string; args: unknown }
  | ({ type: 'tool_result' } & SettledCall)
  | ({ type: 'interrupted'; calls: PendingCall[] } & EngineResult)
  | ({ type: 'done' } & EngineResult)
  | ({ type: 'error'; code: EngineErrorCode; message: string; detail?: string } & EngineResult)
  // Part of a model turn could not be read (a non-terminal error, DESIGN §6); the run goes on.
  | { type: 'notice'; code: AiErrorCode; message: string }
  // The tokens the run's model requests reported so far, added up.
  | ({ type: 'usage' } & Usage);

const DEFAULT_MAX_TURNS = 8;
export const DECLINED = 'The user declined this action.';
const MOVED_ON = 'The user did not approve this action and sent a new message instead.';

/** A call as the engine knows it: Skimmer's id, and the provider's (absent in turns stored before ids). */
type Call = { id: string; wireId?: string; name: string; input: unknown };
type Result = { callId: string; name: string; output: string; isError: boolean };
/**
 * How a call was settled, for the audit log: `answered` when the user's answer decided it; `args` and
 * `provenance` are null when the arguments were invalid or named no tool.
 */
export type SettledCall = {
  id: string;
  name: string;
  output: string;
  isError: boolean;
  decision: CallDecision;
  answered: boolean;
  args: unknown;
  provenance: Provenance | null;
};

export async function* runEngine(request: EngineRequest): AsyncGenerator<EngineEvent, EngineResult> {
  const signal = request.signal ?? new AbortController().signal;
  const maxTurns = request.maxTurns ?? DEFAULT_MAX_TURNS;
  const tools = new Map(request.tools.map((t) => [t.name, t]));
  const turns: Turn[] = [];
  const provenance = new ProvenanceTracker(request.history, request.prompt);
  const takenIds = new Set(callIds(request.history));

  let usage = null as Usage | null;
  const end = (event: EngineEvent & EngineResult): EngineEvent & EngineResult => ({ ...event, usage });
  const fail = (code: EngineErrorCode, message: string, detail?: string) =>
    end({ type: 'error', code, message, ...(detail ? { detail } : {}), status: 'error', turns, usage });

  let specs: ToolSpec[];
  try {
    specs = request.tools.map(toolSpec);
  } catch (e) {
    const event = fail('invalid_request', e instanceof Error ? e.message : String(e));
    yield event;
    return event;
  }

  // Resuming: the last stored turn holds the calls that interrupted the previous run.
  const open = lastCalls(request.history);
  const promptBlocks: Block[] =
    request.prompt === undefined
      ? []
      : [
          ...(request.context ?? []).map((text): Block => ({ type: 'text', text })),
          { type: 'text', text: request.prompt },
        ];
  let userBlocks: Block[] = promptBlocks;

  if (open.length > 0) {
    const answers = new Map((request.answers ?? []).map((a) => [a.id, a]));
    const settled = settleRound(open, tools, provenance, answers, request.prompt !== undefined);
    if (settled.pending.some((c) => !c.held)) {
      // Unanswered calls that still need approval, and no new words: ask again; nothing is stored.
      const event = end({ type: 'interrupted', calls: settled.pending, status: 'interrupted', turns, usage });
      yield event;
      return event;
    }
    const results = yield* runSteps(settled.steps, signal, provenance);
    userBlocks = [...results.map(resultBlock), ...promptBlocks];
    if (signal.aborted) {
      turns.push({ role: 'user', content: userBlocks });
      const event = fail('cancelled', aiErrorMessages.cancelled);
      yield event;
      return event;
    }
  }
  if (userBlocks.length > 0) turns.push({ role: 'user', content: userBlocks });

  const system = systemPrompt(request);
  const fixedTokens = {
    systemTokens: estimateTokens({ role: 'user', content: [{ type: 'text', text: system ?? '' }] }),
    toolTokens: Math.ceil(JSON.stringify(specs).length / 4),
  };
  for (let round = 0; ; round += 1) {
    if (round >= maxTurns) {
      const event = fail(
        'max_turns',
        `The model was still calling tools after ${maxTurns} turns, so Skimmer stopped it.`,
      );
      yield event;
      return event;
    }
    if (signal.aborted) {
      const event = fail('cancelled', aiErrorMessages.cancelled);
      yield event;
      return event;
    }

    // Only what is sent is trimmed; the turns to store stay whole (DESIGN §6 "Budget").
    const whole = [...request.history, ...turns];
    const trimmed = request.budget ? trimHistory(whole, { ...request.budget, ...fixedTokens }) : null;
    if (trimmed && !trimmed.ok) {
      const event = fail('context_overflow', aiErrorMessages.context_overflow);
      yield event;
      return event;
    }

    // One model turn.
    let text = '';
    const calls: Call[] = [];
    let ending: { code: EngineErrorCode; message: string; detail?: string } | null = null;
    let stopped = false;
    try {
      const events = request.stream(
        {
          model: request.model,
          ...(system ? { system } : {}),
          history: trimmed ? trimmed.history : whole,
          tools: specs,
          ...(request.maxOutputTokens ? { maxOutputTokens: request.maxOutputTokens } : {}),
        },
        signal,
      );
      for await (const event of events) {
        if (signal.aborted) break;
        if (event.type === 'text_delta') {
          text += event.text;
          yield { type: 'text', text: event.text };
        } else if (event.type === 'tool_call_complete') {
          const id = (request.newCallId ?? newCallId)(takenIds);
          takenIds.add(id);
          calls.push({ id, wireId: event.callId, name: event.name, input: event.input });
        } else if (event.type === 'message_stop') {
          stopped = true;
          break;
        } else if (event.type === 'aborted') {
          break;
        } else if (event.type === 'usage') {
          usage = {
            inputTokens: (usage?.inputTokens ?? 0) + event.inputTokens,
            outputTokens: (usage?.outputTokens ?? 0) + event.outputTokens,
          };
          yield { type: 'usage', ...usage };
        } else if (event.type === 'error' && event.terminal) {
          ending = {
            code: event.code,
            message: event.message,
            ...(event.providerDetail ? { detail: event.providerDetail } : {}),
          };
          break;
        } else if (event.type === 'error') {
          yield { type: 'notice', code: event.code, message: noticeMessage };
        }
      }
    } catch (e) {
      if (!signal.aborted)
        ending = { code: 'incomplete', message: `${aiErrorMessages.incomplete} (${String(e)})` };
    }
    if (signal.aborted) ending = { code: 'cancelled', message: aiErrorMessages.cancelled };
    else if (!stopped && !ending) ending = { code: 'incomplete', message: aiErrorMessages.incomplete };

    const content: Block[] = text ? [{ type: 'text', text }] : [];
    // A failed or stopped turn keeps its text but not its calls: they were never offered to the user.
    if (!ending)
      for (const c of calls)
        content.push({ type: 'tool_call', id: c.id, wireId: c.wireId ?? '', name: c.name, input: c.input });
    if (content.length > 0) turns.push({ role: 'assistant', content });
    if (ending) {
      const event = fail(ending.code, ending.message, ending.detail);
      yield event;
      return event;
    }
    if (calls.length === 0) {
      const event = end({ type: 'done', status: 'done', turns, usage });
      yield event;
      return event;
    }

    for (const c of calls) yield { type: 'tool_call', id: c.id, name: c.name, args: c.input };
    const settled = settleRound(calls, tools, provenance, new Map(), false);
    if (settled.pending.some((c) => !c.held)) {
      const event = end({ type: 'interrupted', calls: settled.pending, status: 'interrupted', turns, usage });
      yield event;
      return event;
    }
    const results = yield* runSteps(settled.steps, signal, provenance);
    turns.push({ role: 'user', content: results.map(resultBlock) });
    if (signal.aborted) {
      const event = fail('cancelled', aiErrorMessages.cancelled);
      yield event;
      return event;
    }
  }
}

function lastCalls(history: readonly Turn[]): Call[] {
  const last = history.at(-1);
  return last?.role === 'assistant'
    ? last.content.flatMap((b) =>
        b.type === 'tool_call' ? [{ id: b.id, name: b.name, input: b.input }] : [],
      )
    : [];
}

function callIds(history: readonly Turn[]): string[] {
  return history.flatMap((t) => t.content.flatMap((b) => (b.type === 'tool_call' ? [b.id] : [])));
}

/** The calls a stored conversation waits for, as its interrupted run listed them (with today's gates). */
export function openCalls(history: readonly Turn[], tools: readonly AnyTool[]): PendingCall[] {
  const calls = lastCalls(history);
  if (calls.length === 0) return [];
  const byName = new Map(tools.map((t) => [t.name, t]));
  return settleRound(calls, byName, new ProvenanceTracker(history, undefined), new Map(), false).pending;
}

function systemPrompt(request: EngineRequest): string | undefined {
  // SECURITY: any tool may return mail, and quoted mail may already sit in the history.
  const mayShowMail =
    request.tools.length > 0 ||
    (request.context?.length ?? 0) > 0 ||
    request.history.some((t) =>
      t.content.some((b) =>
        (b.type === 'text' ? b.text : b.type === 'tool_result' ? b.output : '').includes('<untrusted_email'),
      ),
    );
  const base = request.system ?? '';
  if (!mayShowMail || base.includes(untrustedNote)) return base || undefined;
  return base ? `${base}\n\n${untrustedNote}` : untrustedNote;
}

type Step =
  | { kind: 'result'; settled: SettledCall }
  | { kind: 'run'; tool: AnyTool; call: Call; args: unknown; provenance: Provenance; answered: boolean };

// Runs a settled round in call order: each step is a result already decided (declined, invalid…) or a call
// to run; every result is reported as it lands.
async function* runSteps(
  steps: readonly Step[],
  signal: AbortSignal,
  provenance: ProvenanceTracker,
): AsyncGenerator<EngineEvent, Result[]> {
  const results: Result[] = [];
  for (const step of steps) {
    let settled: SettledCall;
    if (step.kind === 'result') settled = step.settled;
    else {
      const result = await runCall(step.tool, step.call, step.args, signal, provenance);
      settled = {
        id: result.callId,
        name: result.name,
        output: result.output,
        isError: result.isError,
        decision: result.output === CANCELLED ? 'cancelled' : step.answered ? 'approved' : 'allowed',
        answered: step.answered,
        args: step.args,
        provenance: step.provenance,
      };
    }
    results.push({
      callId: settled.id,
      name: settled.name,
      output: settled.output,
      isError: settled.isError,
    });
    yield { type: 'tool_result', ...settled };
  }
  return results;
}

/**
 * Decides every call of a round, in call order: parse, gate, answer. Pure apart from reading provenance.
 * `pending` lists the calls that need the user's approval (and, `held`, the side-effecting calls allowed
 * beside them); while one of them is not held, nothing of the round runs.
 */
function settleRound(
  calls: readonly Call[],
  tools: ReadonlyMap<string, AnyTool>,
  provenance: ProvenanceTracker,
  answers: ReadonlyMap<string, Answer>,
  movedOn: boolean,
): { steps: Step[]; pending: PendingCall[] } {
  const steps: Step[] = [];
  const pending: PendingCall[] = [];
  const spent = new Set<Answer>();
  for (const call of calls) {
    const hash = argsHash(call.input);
    // SECURITY: an answer decides the one call it names by Skimmer's id and whose arguments it saw; an
    // answer for other arguments decides nothing, and one answer never decides two calls (a turn stored
    // before Skimmer named calls may repeat an id).
    const named = answers.get(call.id);
    const answer = named && named.argsHash === hash && !spent.has(named) ? named : undefined;
    if (answer) spent.add(answer);
    const error = (
      output: string,
      decision: CallDecision,
      checked: { args: unknown; provenance: Provenance } | null = null,
      byUser = answer !== undefined,
    ): Step => ({
      kind: 'result',
      settled: {
        id: call.id,
        name: call.name,
        output,
        isError: true,
        decision,
        answered: byUser,
        args: checked?.args ?? call.input,
        provenance: checked?.provenance ?? null,
      },
    });
    // The one check every call passes, in the app and through `skimmer mcp` alike (call-gate.ts).
    const checkedCall = checkCall(tools, call.name, call.input, provenance);
    if (checkedCall.kind === 'invalid') {
      steps.push(error(checkedCall.output, 'invalid'));
      continue;
    }
    const { tool, args, provenance: origin, gate: gated } = checkedCall;
    const checked = { args, provenance: origin };
    // SECURITY: an answer can approve what the gate asked about, never what the gate denies.
    const decision = gated === 'deny' || !answer ? gated : answer.decision;
    if (gated === 'deny') {
      steps.push(error(DECLINED, 'auto-denied', checked, false));
    } else if (decision === 'deny') {
      const reason = answer?.reason ? ` Reason: ${answer.reason}` : '';
      steps.push(error(`${DECLINED}${reason}`, 'denied', checked));
    } else if (decision === 'approve' && !answer) {
      // Sending new words instead of answering is the user's decision too.
      if (movedOn) steps.push(error(MOVED_ON, 'denied', checked, true));
      else
        pending.push({ id: call.id, argsHash: hash, name: call.name, args, provenance: origin, held: false });
    } else {
      if (!answer && tool.effect !== 'read') {
        pending.push({ id: call.id, argsHash: hash, name: call.name, args, provenance: origin, held: true });
      }
      steps.push({ kind: 'run', tool, call, args, provenance: origin, answered: answer !== undefined });
    }
  }
  return { steps, pending };
}

async function runCall(
  tool: AnyTool,
  call: Call,
  args: unknown,
  signal: AbortSignal,
  provenance: ProvenanceTracker,
): Promise<Result> {
  return { callId: call.id, name: call.name, ...(await runTool(tool, args, signal, provenance)) };
}

function resultBlock(r: Result): Block {
  return { type: 'tool_result', callId: r.callId, name: r.name, output: r.output, isError: r.isError };
}
