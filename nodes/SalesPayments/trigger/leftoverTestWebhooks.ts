import type { IDataObject } from 'n8n-workflow';

import { parseHttpDate, parseIsoInstant } from '../fields/dates';
import type { AttemptEvent } from '../transport/retry';

/**
 * Test webhooks an n8n killed while listening left behind (n8n deletes one when the listen ends).
 * A production checkExists or create deletes this node's test webhooks older than LEFTOVER_AFTER_MS
 * by the platform's clock alone (`Date` header against `createdAt`), so no clock difference makes a
 * young one look old. A time that cannot be read strictly keeps the webhook.
 */

/** n8n's TEST_WEBHOOK_TIMEOUT (n8n 1.x and 2.x). */
export const TEST_LISTEN_MS = 2 * 60_000;
/** Beyond the listen timeout: n8n's own delete of a listen that ended, and the Date header's 1 s. */
export const LEFTOVER_MARGIN_MS = 60_000;
export const LEFTOVER_AFTER_MS = TEST_LISTEN_MS + LEFTOVER_MARGIN_MS;

/** The platform's clock as its answers tell it (the `Date` header of the latest 2xx answer). */
export interface PlatformClock {
	now?: number;
}

/** Observes answers for their Date header (a form not read strictly leaves the clock unknown). */
export function readClock(clock: PlatformClock): (event: AttemptEvent) => void {
	return (event) => {
		const at = event.date === undefined ? undefined : parseHttpDate(event.date);
		if (at !== undefined) clock.now = at;
	};
}

/** How old a webhook is by the platform's clock; undefined when either time can't be read strictly. */
function leftoverAge(webhook: IDataObject, clock: PlatformClock): number | undefined {
	if (clock.now === undefined || typeof webhook.createdAt !== 'string') return undefined;
	const created = parseIsoInstant(webhook.createdAt);
	return created === undefined ? undefined : clock.now - created;
}

/** What a leftover test webhook is, for n8n's log (no secrets: id, creation time, age). */
function leftoverLine(webhook: IDataObject, ageMs: number): string {
	const minutes = Math.floor(ageMs / 60_000);
	return `test webhook ${String(webhook.id)} (created ${String(webhook.createdAt)}, ${minutes} min ago by the platform's clock): a "Listen for test event" that n8n never ended (n8n stopped or killed while listening) left it calling this node's test URL`;
}

/** Those of this node's test webhooks that no listen can still be waiting on, with a line for n8n's log. */
export function leftoversAmong(tests: Array<{ id: string; webhook: IDataObject }>, clock: PlatformClock): Array<{ id: string; line: string }> {
	const found: Array<{ id: string; line: string }> = [];
	for (const { id, webhook } of tests) {
		const age = leftoverAge(webhook, clock);
		if (age !== undefined && age > LEFTOVER_AFTER_MS) found.push({ id, line: leftoverLine(webhook, age) });
	}
	return found;
}
