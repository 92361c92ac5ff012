import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * The error kit every context shares (execute, hooks, webhooks, dropdowns): input errors that
 * name the field, the re-wrap of errors for the current node, and the plain-words explanations
 * of a platform refusal.
 */

/** Anything that can name its node: every n8n function context. */
export interface NodeContext {
	getNode(): INode;
}

/** What the platform says when it refuses a request (spec part 7). */
export interface PlatformError {
	statusCode: number;
	message: string;
	error: string;
}

/** Turns a refusal into plain words for the user, or leaves it as the platform said it. */
export type Explain = (error: PlatformError) => string | undefined;

/** Refuses bad input before any request: the message names the field by its display name. */
export function fieldError(ctx: NodeContext, message: string, itemIndex?: number): never {
	throw new NodeOperationError(ctx.getNode(), message, itemIndex === undefined ? {} : { itemIndex });
}

/** How an error names what was given instead: "an object", "a list", "a boolean (true)", "a number (1.5)". */
export function kindOf(value: unknown): string {
	if (Array.isArray(value)) return 'a list';
	if (value === null) return 'null';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'boolean' || typeof value === 'number') return `a ${typeof value} (${String(value)})`;
	return typeof value === 'string' ? 'text' : `a ${typeof value}`;
}

/**
 * Refuses a value of the wrong type, saying so: "Order ID must be text; received an object" (an
 * agent's model, or an expression, handed an object where text belongs) rather than "is required".
 */
export function wrongType(ctx: NodeContext, label: string, expected: string, value: unknown, itemIndex?: number): never {
	return fieldError(ctx, `${label} must be ${expected}; received ${kindOf(value)}`, itemIndex);
}

/** The error as this node's own: a NodeApiError or NodeOperationError passes unchanged, anything else becomes a NodeOperationError. */
export function asNodeError(ctx: NodeContext, error: unknown, itemIndex?: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError) return new NodeApiError(ctx.getNode(), error as unknown as JsonObject);
	return new NodeOperationError(ctx.getNode(), error as Error, itemIndex === undefined ? {} : { itemIndex });
}

/** Whether a transport error is the platform's 404. */
export function isNotFound(error: unknown): boolean {
	return (error as { httpCode?: string | null } | undefined)?.httpCode === '404';
}

/** "No <what> with this ID exists in the credential's business." for a 404. */
export function notFound(what: string, key = 'ID'): Explain {
	return (error) =>
		error.statusCode === 404 ? `No ${what} with this ${key} exists in the credential's business.` : undefined;
}

/** The first explanation that has something to say. */
export function explainAll(...explainers: Explain[]): Explain {
	return (error) => {
		for (const explain of explainers) {
			const words = explain(error);
			if (words) return words;
		}
		return undefined;
	};
}
