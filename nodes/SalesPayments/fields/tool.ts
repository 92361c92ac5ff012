import type { IDisplayOptions } from 'n8n-workflow';

import type { NodeContext } from '../transport/errors';

/**
 * The node as an AI agent's tool (docs/ai-agents.md). n8n makes a tool of a node with
 * `usableAsTool` by registering its description again under the type name plus `Tool`
 * (`salesPayments` -> `salesPaymentsTool`) and runs the workflow node of that type, whether the
 * agent calls it through n8n-core's tool wrapper or as a node of its own (Agent v3). n8n itself
 * tells tools apart by that name: its `@tool` display condition is
 * `nodeTypeDescription.name.endsWith('Tool')` in n8n-workflow 1.120, 2.8 and 2.41 (n8n 1.123.81,
 * 2.8.4, 2.41.1), and `isToolType()` (2.x only, so not imported here) reads the type the same way.
 */
export function runsAsTool(ctx: NodeContext): boolean {
	const type = ctx.getNode().type ?? '';
	return type.slice(type.lastIndexOf('.') + 1).endsWith('Tool');
}

/** Display condition of a field only a tool shows (or hides): n8n's `@tool`. */
export const AS_TOOL: NonNullable<IDisplayOptions['show']> = { '@tool': [true] };

/** Records a list gives an agent unless its Limit says otherwise, and the most it may ask for. */
export const TOOL_DEFAULT_LIMIT = 20;
export const TOOL_MAX_LIMIT = 100;
