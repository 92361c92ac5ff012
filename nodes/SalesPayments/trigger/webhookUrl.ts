import type { IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DATA_CREDENTIAL, getCachedCredentials, serviceUrl } from '../transport/credentials';

/**
 * Behind a proxy or in Docker, n8n often takes its address for http://localhost:5678/, which a
 * remote platform can never call: activation refuses it, naming WEBHOOK_URL. A local platform
 * (the simulator) can reach it, so that case is allowed.
 */

/** localhost, *.localhost, 127.0.0.0/8, ::1, 0.0.0.0: addresses that name the machine itself. */
export function isLoopbackHost(hostname: string): boolean {
	const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
	if (host === 'localhost' || host.endsWith('.localhost')) return true;
	if (host === '::1' || host === '0:0:0:0:0:0:0:1' || host === '0.0.0.0' || host === '::') return true;
	if (/^::ffff:127\./.test(host)) return true;
	return /^127(\.\d{1,3}){3}$/.test(host);
}

function hostOf(url: string): string | undefined {
	try {
		return new URL(url).hostname;
	} catch {
		return undefined;
	}
}

/** Throws when this node's webhook URL is local and the credential's Base URL is not. Call before registering. */
export async function assertReachableWebhookUrl(ctx: IHookFunctions): Promise<void> {
	const webhookUrl = ctx.getNodeWebhookUrl('default');
	const webhookHost = webhookUrl ? hostOf(webhookUrl) : undefined;
	if (!webhookUrl || webhookHost === undefined || !isLoopbackHost(webhookHost)) return;
	const credentials = await getCachedCredentials.call(ctx, DATA_CREDENTIAL);
	const { origin } = serviceUrl(ctx, credentials.baseUrl, 'Base URL');
	const platformHost = hostOf(origin);
	if (platformHost === undefined || isLoopbackHost(platformHost)) return;
	const base = new URL(webhookUrl).origin;
	throw new NodeOperationError(
		ctx.getNode(),
		`n8n's webhook URL (${base}) points at this machine, so the platform at ${origin} could not deliver events to it. Set WEBHOOK_URL to the public address of n8n and restart n8n.`,
		{
			description:
				'n8n builds the URL it registers from WEBHOOK_URL. Behind a reverse proxy, a tunnel or in Docker, set it to the address the platform can reach, for example WEBHOOK_URL=https://n8n.example.com/, restart n8n and activate the workflow again. Nothing was registered on the platform.',
		},
	);
}
