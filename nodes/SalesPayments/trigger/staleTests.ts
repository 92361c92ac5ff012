import type { IDataObject, IHookFunctions } from 'n8n-workflow';

import type { AttemptEvent } from '../transport/transport';
import { isOwnTestWebhook, usableId } from './ownership';

/**
 * Test webhooks left behind. "Listen for test event" registers a webhook for this node's test URL,
 * and n8n deletes it when the listen ends (stopped, its event received, or n8n's 2-minute timeout,
 * TEST_WEBHOOK_TIMEOUT, armed before the webhook is registered). An n8n killed while listening
 * never does: the platform then sends every event to a dead `/webhook-test/` URL (404s, retries,
 * failure e-mails) until someone listens on that node again.
 *
 * A production `checkExists` says false while this node has such a test webhook, and `create`
 * deletes it, when it is older than STALE_AFTER_MS: no listen can still be waiting on it, in this
 * n8n or in another main of the same queue-mode cluster. Its age is read on the platform's clock
 * alone (the `Date` header of the list answer against the webhook's `createdAt`), so no difference
 * between n8n's clock and the platform's can make a young one look old; an answer without a `Date`
 * header, or a webhook without a readable `createdAt`, leaves it in place.
 */

/** n8n's TEST_WEBHOOK_TIMEOUT (n8n 1.x and 2.x). */
export const TEST_LISTEN_MS = 2 * 60_000;
/** Beyond the listen timeout: n8n's own delete of a listen that ended, and the Date header's 1 s. */
export const STALE_MARGIN_MS = 60_000;
export const STALE_AFTER_MS = TEST_LISTEN_MS + STALE_MARGIN_MS;

/** The platform's clock as its answers tell it (the `Date` header of the latest 2xx answer). */
export interface PlatformClock {
	now?: number;
}

export function readClock(clock: PlatformClock): (event: AttemptEvent) => void {
	return (event) => {
		const at = event.date === undefined ? NaN : Date.parse(event.date);
		if (Number.isFinite(at)) clock.now = at;
	};
}

function ageOf(webhook: IDataObject, now: number): number | undefined {
	const created = typeof webhook.createdAt === 'string' ? Date.parse(webhook.createdAt) : NaN;
	return Number.isFinite(created) ? now - created : undefined;
}

/** This node's own test webhooks that no listen can still be waiting on (none in a test call). */
export function staleTestWebhooks(ctx: IHookFunctions, webhooks: IDataObject[], productionUrl: string, clock: PlatformClock): IDataObject[] {
	const now = clock.now;
	if (now === undefined) return [];
	return webhooks.filter((webhook) => {
		const age = ageOf(webhook, now);
		return usableId(webhook.id) !== undefined && age !== undefined && age > STALE_AFTER_MS && isOwnTestWebhook(ctx, webhook, productionUrl);
	});
}

/** One line for n8n's log about a test webhook deleted here. */
export function staleLine(webhook: IDataObject, clock: PlatformClock): string {
	const minutes = Math.floor((ageOf(webhook, clock.now ?? NaN) ?? 0) / 60_000);
	return `deleted test webhook ${String(webhook.id)} (created ${String(webhook.createdAt)}, ${minutes} min ago by the platform's clock): a "Listen for test event" that n8n never ended (n8n stopped or killed while listening) left it calling this node's test URL`;
}
