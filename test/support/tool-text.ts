// A tool's output as text, for tests that call a tool's `run` directly (not through `runTool`, which wraps what
// is untrusted): blocks a tool wrapped itself are read as the model would get them.
import type { ToolOutput } from '../../electron/ai/tools/tool.ts';

export const toolText = (o: ToolOutput): string => (typeof o.output === 'string' ? o.output : o.output.text);
