/**
 * The identity API (spec 4.12), served under IDENTITY_PREFIX so that its base URL
 * (`${sim.url}/auth`) differs from the data API's. Its routes use auth 'none' on the router and
 * check bearer tokens themselves.
 *
 * Behaviour (lifetimes and the shape of `observation` are "not shown" in the spec; these are the
 * simulator's choices):
 * - sign-in returns a token pair; for an account with two-factor authentication it emails a
 *   code and returns a limited token that only POST /accounts/verify-2fa accepts;
 * - access tokens expire after ACCESS_TOKEN_TTL_MS (limited ones after TWO_FACTOR_TOKEN_TTL_MS),
 *   measured on sim.state.clock; refresh accepts an expired access token with its refresh token
 *   and rotates the pair (the old one is revoked);
 * - tokens are tied to the x-fingerprint-id they were issued to;
 * - codes (two-factor, device approval, account validation) are 6 digits, valid CODE_TTL_MS,
 *   single use, and every message sent is recorded in the outbox (`sim.state.col('outbox')`,
 *   GET /__sim/identity/outbox);
 * - refusals are 401 (wrong password, wrong/expired code, bad/expired/revoked token) or
 *   400 `Invalid param: [...]`, with the error body {message, error, statusCode}. Like careless
 *   real servers, the revoked-token messages echo the token: tests use that to prove the node
 *   scrubs tokens from its errors.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';

import type { JsonObject, RouteContext } from '../core';
import { invalidParams, SimError, str } from '../core';
import type { SimModule, Simulator } from '../server';

export const IDENTITY_PREFIX = '/auth';
export const ACCESS_TOKEN_TTL_MS = 15 * 60_000;
export const TWO_FACTOR_TOKEN_TTL_MS = 5 * 60_000;
export const REFRESH_TOKEN_TTL_MS = 7 * 24 * 60 * 60_000;
export const CODE_TTL_MS = 10 * 60_000;

export interface IdentityTestUser {
	username: string;
	password: string;
	name: string;
	phone: string;
	twoFactor: boolean;
}

/** A user without two-factor authentication; the account starts pending validation. */
export const PLAIN_USER: IdentityTestUser = {
	username: 'carla@acme-shop.example',
	password: 'Plain-Passw0rd-2024!',
	name: 'Carla Mendes',
	phone: '+5511987650001',
	twoFactor: false,
};

/** A user with two-factor authentication: sign-in emails a code to verify. */
export const TWO_FACTOR_USER: IdentityTestUser = {
	username: 'diego@acme-shop.example',
	password: 'TwoFactor-Passw0rd-2024!',
	name: 'Diego Ramos',
	phone: '+5511987650002',
	twoFactor: true,
};

export const SEEDED_USERS = [PLAIN_USER, TWO_FACTOR_USER];

export type CodePurpose = 'two-factor' | 'device-approval' | 'account-validation';

/** A message the platform "sent" (email or SMS), as recorded in the outbox. */
export interface OutboxMessage {
	id: string;
	channel: 'email' | 'sms';
	to: string;
	userId: string;
	purpose: CodePurpose;
	code: string;
	text: string;
	sentAt: string;
}

export function identityUrl(sim: Simulator): string {
	return `${sim.url}${IDENTITY_PREFIX}`;
}

export function outbox(sim: Simulator): OutboxMessage[] {
	return sim.state.col('outbox') as unknown as OutboxMessage[];
}

/** The code of the newest message matching the filter (throws when there is none). */
export function lastCode(sim: Simulator, filter: Partial<Pick<OutboxMessage, 'to' | 'purpose' | 'channel'>>): string {
	const found = outbox(sim)
		.filter((m) => Object.entries(filter).every(([k, v]) => m[k as keyof OutboxMessage] === v))
		.pop();
	if (!found) throw new Error(`No outbox message matches ${JSON.stringify(filter)}`);
	return found.code;
}

interface User {
	id: string;
	accountId: string;
	username: string;
	password: string;
	name: string;
	phone: string;
	twoFactor: boolean;
	accountStatus: string;
	validatedChannels: string[];
	createdAt: string;
}

interface Session {
	token: string;
	refreshToken: string;
	userId: string;
	fingerprint: string;
	/** 'two-factor': issued at sign-in of a 2FA account, good for verify-2fa only. */
	scope: 'full' | 'two-factor';
	issuedAt: number;
	expiresAt: number;
	refreshExpiresAt: number;
	revoked: boolean;
}

interface Code {
	code: string;
	userId: string;
	purpose: CodePurpose;
	channel: 'email' | 'sms';
	fingerprint: string;
	expiresAt: number;
	used: boolean;
}

interface Device {
	id: string;
	name: string;
	fingerprint: string;
	userAgent: string;
	accountId: string;
	userId: string;
	status: string;
	createdAt: string;
	ip: string;
}

/** All validation channels of an account; validating with a code clears that code's channel. */
const CHANNELS = ['email', 'phone'];

const unauthorized = (message = 'Unauthorized') => new SimError(401, message);

export const simModule: SimModule = {
	seed(sim) {
		// Fixed ids: the shared seeded random source is left alone so other modules' data does not move.
		const users = sim.state.col('identity.users') as unknown as User[];
		SEEDED_USERS.forEach((u, n) => {
			users.push({
				id: `7d0c2b1e-0000-4000-8000-00000000000${n + 1}`,
				accountId: `a1b2c3d4-0000-4000-8000-00000000000${n + 1}`,
				username: u.username,
				password: u.password,
				name: u.name,
				phone: u.phone,
				twoFactor: u.twoFactor,
				accountStatus: 'pending',
				validatedChannels: [],
				createdAt: '2024-03-01T12:00:00.000Z',
			});
		});
	},
	routes(router, sim) {
		const s = sim.state;
		const now = () => s.clock.now();
		const users = () => s.col('identity.users') as unknown as User[];
		const sessions = () => s.col('identity.sessions') as unknown as Session[];
		const codes = () => s.col('identity.codes') as unknown as Code[];
		const devices = () => s.col('identity.devices') as unknown as Device[];
		const userOf = (session: Session) => users().find((u) => u.id === session.userId)!;

		const fingerprintOf = (ctx: RouteContext): string => {
			const fp = (ctx.headers['x-fingerprint-id'] ?? '').trim();
			if (!fp) throw invalidParams('x-fingerprint-id');
			return fp;
		};

		const issue = (user: User, fingerprint: string, scope: Session['scope']): Session => {
			const session: Session = {
				token: `sim_at_${randomBytes(24).toString('hex')}`,
				refreshToken: `sim_rt_${randomBytes(24).toString('hex')}`,
				userId: user.id,
				fingerprint,
				scope,
				issuedAt: now(),
				expiresAt: now() + (scope === 'full' ? ACCESS_TOKEN_TTL_MS : TWO_FACTOR_TOKEN_TTL_MS),
				refreshExpiresAt: now() + REFRESH_TOKEN_TTL_MS,
				revoked: false,
			};
			sessions().push(session);
			return session;
		};

		/** The session of the bearer token; `fingerprint` (when given) must be the one it was issued to. */
		const bearer = (
			ctx: RouteContext,
			opts: { fingerprint?: string; twoFactorStep?: boolean; allowExpired?: boolean } = {},
		): Session => {
			const match = /^Bearer\s+(\S+)$/i.exec(ctx.headers.authorization ?? '');
			if (!match) throw unauthorized();
			const session = sessions().find((x) => x.token === match[1]);
			if (!session) throw unauthorized('Invalid token');
			if (session.revoked) throw unauthorized(`Token ${session.token} has been revoked`);
			if (!opts.allowExpired && now() >= session.expiresAt) throw unauthorized('Token expired');
			if (session.scope === 'two-factor' && !opts.twoFactorStep) {
				throw unauthorized('Two-factor verification required: send the code to POST /accounts/verify-2fa');
			}
			if (opts.fingerprint !== undefined && opts.fingerprint !== session.fingerprint) {
				throw unauthorized('The token was issued to another device');
			}
			return session;
		};

		const bodyOf = (ctx: RouteContext): Record<string, unknown> =>
			ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body) ? (ctx.body as Record<string, unknown>) : {};

		const codeParam = (ctx: RouteContext): string => {
			const code = bodyOf(ctx).code;
			if (typeof code !== 'string' || !code.trim()) throw invalidParams('code');
			return code.trim();
		};

		const deliver = (user: User, code: Code) => {
			outbox(sim).push({
				id: randomUUID(),
				channel: code.channel,
				to: code.channel === 'email' ? user.username : user.phone,
				userId: user.id,
				purpose: code.purpose,
				code: code.code,
				text: `Your ${code.purpose.replace('-', ' ')} code is ${code.code}`,
				sentAt: s.clock.iso(),
			});
		};

		/** Sends a new code (superseding unused ones of the same purpose and channel) and records it. */
		const send = (user: User, purpose: CodePurpose, channel: 'email' | 'sms', fingerprint: string): Code => {
			for (const c of codes()) {
				if (c.userId === user.id && c.purpose === purpose && c.channel === channel) c.used = true;
			}
			const code: Code = {
				code: String(randomInt(0, 1_000_000)).padStart(6, '0'),
				userId: user.id,
				purpose,
				channel,
				fingerprint,
				expiresAt: now() + CODE_TTL_MS,
				used: false,
			};
			codes().push(code);
			deliver(user, code);
			return code;
		};

		/** Uses up the matching code; a wrong, used or expired code is a 401. */
		const consume = (user: User, purpose: CodePurpose, value: string, fingerprint?: string): Code => {
			const found = codes().find(
				(c) =>
					c.userId === user.id &&
					c.purpose === purpose &&
					c.code === value &&
					!c.used &&
					(fingerprint === undefined || c.fingerprint === fingerprint),
			);
			if (!found) throw unauthorized('Invalid code');
			if (now() >= found.expiresAt) throw unauthorized('Code expired');
			found.used = true;
			return found;
		};

		const publicUser = (user: User) => ({
			id: user.id,
			name: user.name,
			email: user.username,
			phone: user.phone,
			twoFactorEnabled: user.twoFactor,
		});

		const pendingChannels = (user: User) => CHANNELS.filter((c) => !user.validatedChannels.includes(c));

		const publicDevice = (d: Device, withIp: boolean) => {
			const { ip, userId, ...rest } = d;
			void userId;
			return withIp ? { ...rest, ip } : rest;
		};

		const P = IDENTITY_PREFIX;

		router.add('POST', `${P}/identity/sign-in`, 'none', (ctx) => {
			const fingerprint = fingerprintOf(ctx);
			const body = bodyOf(ctx);
			const missing = ['username', 'password'].filter((k) => typeof body[k] !== 'string' || !(body[k] as string));
			if (missing.length) throw invalidParams(...missing);
			const username = String(body.username).trim().toLowerCase();
			const user = users().find((u) => u.username === username);
			if (!user || user.password !== body.password) throw unauthorized('Invalid username or password');
			let observation: JsonObject;
			let session: Session;
			if (user.twoFactor) {
				// An unexpired code already sent is sent again, so a second sign-in does not void it.
				const pending = codes().find(
					(c) => c.userId === user.id && c.purpose === 'two-factor' && !c.used && now() < c.expiresAt,
				);
				if (pending) deliver(user, pending);
				else send(user, 'two-factor', 'email', fingerprint);
				session = issue(user, fingerprint, 'two-factor');
				observation = {
					twoFactorRequired: true,
					nextStep: 'verify-2fa',
					message: 'Two-factor authentication required: send the code sent by email to POST /accounts/verify-2fa',
				};
			} else {
				session = issue(user, fingerprint, 'full');
				observation = { twoFactorRequired: false, accountStatus: user.accountStatus, channelsPendingValidation: pendingChannels(user) };
			}
			return {
				data: {
					token: session.token,
					refreshToken: session.refreshToken,
					authenticationType: 'Bearer',
					account: { id: user.accountId, status: user.accountStatus },
					user: publicUser(user),
					loggedAt: s.clock.iso(),
					observation,
				},
			};
		});

		// Spec: Authorization only (no x-fingerprint-id).
		router.add('POST', `${P}/accounts/verify-2fa`, 'none', (ctx) => {
			const session = bearer(ctx, { twoFactorStep: true });
			const code = codeParam(ctx);
			const user = userOf(session);
			consume(user, 'two-factor', code);
			session.revoked = true;
			const full = issue(user, session.fingerprint, 'full');
			return { data: { token: full.token, refreshToken: full.refreshToken, code } };
		});

		router.add('POST', `${P}/identity/refresh`, 'none', (ctx) => {
			const fingerprint = fingerprintOf(ctx);
			const presented = (ctx.headers['refresh-token'] ?? '').trim();
			if (!presented) throw invalidParams('refresh-token');
			const session = bearer(ctx, { fingerprint, allowExpired: true });
			if (session.refreshToken !== presented) {
				const old = sessions().find((x) => x.refreshToken === presented);
				if (old?.revoked) throw unauthorized(`Refresh token ${presented} has been revoked`);
				throw unauthorized('Invalid refresh token');
			}
			if (now() >= session.refreshExpiresAt) throw unauthorized('Refresh token expired');
			session.revoked = true;
			const next = issue(userOf(session), fingerprint, 'full');
			return {
				data: {
					newTokens: {
						token: next.token,
						refreshToken: next.refreshToken,
						authenticationType: 'Bearer',
						expiresAt: new Date(next.expiresAt).toISOString(),
					},
				},
			};
		});

		router.add('POST', `${P}/identity/devices`, 'none', (ctx) => {
			const fingerprint = fingerprintOf(ctx);
			const session = bearer(ctx, { fingerprint });
			const name = bodyOf(ctx).name;
			if (typeof name !== 'string' || !name.trim()) throw invalidParams('name');
			const user = userOf(session);
			let device = devices().find((d) => d.userId === user.id && d.fingerprint === fingerprint);
			if (!device) {
				device = {
					id: randomUUID(),
					name: name.trim(),
					fingerprint,
					userAgent: ctx.headers['user-agent'] ?? '',
					accountId: user.accountId,
					userId: user.id,
					status: 'pending',
					createdAt: s.clock.iso(),
					ip: (ctx.req.socket.remoteAddress ?? '').replace(/^::ffff:/, ''),
				};
				devices().push(device);
			} else device.name = name.trim();
			if (device.status !== 'enabled') send(user, 'device-approval', 'email', fingerprint);
			return { status: 201, data: publicDevice(device, true) };
		});

		router.add('PATCH', `${P}/identity/devices/approve`, 'none', (ctx) => {
			const fingerprint = fingerprintOf(ctx);
			const session = bearer(ctx, { fingerprint });
			const code = codeParam(ctx);
			const user = userOf(session);
			const device = devices().find((d) => d.userId === user.id && d.fingerprint === fingerprint);
			if (!device) throw new SimError(404, 'No device is registered for this fingerprint');
			if (device.status !== 'enabled') {
				consume(user, 'device-approval', code, fingerprint);
				device.status = 'enabled';
			}
			return { data: publicDevice(device, false) };
		});

		router.add('PATCH', `${P}/identity/accounts/validate`, 'none', (ctx) => {
			const fingerprint = fingerprintOf(ctx);
			const session = bearer(ctx, { fingerprint });
			const code = codeParam(ctx);
			const user = userOf(session);
			const used = consume(user, 'account-validation', code);
			const channel = used.channel === 'email' ? 'email' : 'phone';
			if (!user.validatedChannels.includes(channel)) user.validatedChannels.push(channel);
			user.accountStatus = 'activated';
			return { data: { accountStatus: user.accountStatus, channelsPendingValidation: pendingChannels(user) } };
		});

		router.add('POST', `${P}/identity/otps/email`, 'none', (ctx) => {
			const fingerprint = fingerprintOf(ctx);
			const user = userOf(bearer(ctx, { fingerprint }));
			send(user, 'account-validation', 'email', fingerprint);
			return { status: 201, data: { otpHasBeenSentToEmail: true } };
		});

		router.add('POST', `${P}/identity/otps/sms`, 'none', (ctx) => {
			const fingerprint = fingerprintOf(ctx);
			const user = userOf(bearer(ctx, { fingerprint }));
			send(user, 'account-validation', 'sms', fingerprint);
			return { status: 201, data: { otpHasBeenSentToPhone: true } };
		});

		// Control route: what the platform "sent" (optionally only to one address or number).
		router.add('GET', '/__sim/identity/outbox', 'none', (ctx) => {
			const to = str(ctx.query.to);
			return { raw: outbox(sim).filter((m) => !to || m.to === to) };
		});
	},
};
