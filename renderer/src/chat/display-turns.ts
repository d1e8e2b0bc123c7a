// How stored turns read in the transcript. The engine stores a tool round as an assistant turn with the
// calls and a user-role turn with their results (the providers' pairing rule, DESIGN §6), and a run that
// calls tools several times as several such pairs. A person reads that as one answer: what they wrote, then
// everything the model did and said until it stopped. So tool results join the model's answer, and the
// assistant turns of one answer read as one; only the user's own words (and mail they quoted) are "You".
// Pure; tested in display-turns.test.ts.
import type { ShownTurn } from '../stores/chat-store.ts';
import { textOf } from './turns.ts';

function addUsage(a: ShownTurn['usage'], b: ShownTurn['usage']): ShownTurn['usage'] {
  if (!a || !b) return a ?? b;
  return { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
}

// The later part decides how the answer ended; the usage is the answer's total; a part that could not be
// read in full marks the whole answer.
function joinAnswer(earlier: ShownTurn, later: ShownTurn): ShownTurn {
  const { outcome, note, error } = later;
  const notice = earlier.notice ?? later.notice;
  return {
    role: 'assistant',
    text: earlier.text + later.text,
    blocks: [...earlier.blocks, ...later.blocks],
    usage: addUsage(earlier.usage, later.usage),
    ...(outcome ? { outcome } : {}),
    ...(note ? { note } : {}),
    ...(error ? { error } : {}),
    ...(notice ? { notice } : {}),
  };
}

export function displayTurns(turns: readonly ShownTurn[]): ShownTurn[] {
  const shown: ShownTurn[] = [];
  const appendAnswer = (part: ShownTurn) => {
    const last = shown.at(-1);
    if (last?.role === 'assistant') shown[shown.length - 1] = joinAnswer(last, part);
    else shown.push(part);
  };
  for (const turn of turns) {
    if (turn.role === 'assistant') {
      appendAnswer(turn);
      continue;
    }
    const results = turn.blocks.filter((b) => b.kind === 'tool_result');
    const own = turn.blocks.filter((b) => b.kind !== 'tool_result');
    if (results.length > 0) appendAnswer({ role: 'assistant', text: '', blocks: results, usage: null });
    // A turn of results only is not something the user said; one with words is (its text is theirs).
    if (own.length > 0 || results.length === 0) {
      shown.push({ ...turn, blocks: own, text: own.length > 0 ? textOf(own) : turn.text });
    }
  }
  return shown;
}
