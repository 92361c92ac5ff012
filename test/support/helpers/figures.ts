/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Figures a test measures on its way (latencies, a burst's counts): a passing test prints nothing,
 * so they go to the file named by SP_FIGURES (JSON lines) when it is set, and are printed only
 * beside a failure (figuresOnFailure), where they explain it.
 */
import { appendFileSync } from 'node:fs';

export function recordFigures(name: string, figures: unknown): void {
	const file = process.env.SP_FIGURES;
	if (file) appendFileSync(file, `${JSON.stringify({ name, figures })}\n`);
}

/** Runs the checks; when one fails, its error carries the figures measured. */
export function figuresOnFailure(name: string, figures: unknown, checks: () => void): void {
	recordFigures(name, figures);
	try {
		checks();
	} catch (error) {
		(error as Error).message += `\n\n${name}: ${JSON.stringify(figures)}`;
		throw error;
	}
}
