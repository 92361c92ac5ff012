/**
 * The simulator's state: accounts (API keys), businesses, named collections of records that the
 * route modules own, a settable clock, a seeded random source and an event bus that the
 * webhook module listens to.
 */
import type { JsonObject } from './core';

/** Small fast seeded PRNG (mulberry32): the same seed gives the same data on every run. */
export function rng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export class Clock {
	private offset = 0;
	private fixed: number | undefined;

	now(): number {
		return this.fixed ?? Date.now() + this.offset;
	}

	iso(): string {
		return new Date(this.now()).toISOString();
	}

	advance(ms: number): void {
		if (this.fixed !== undefined) this.fixed += ms;
		else this.offset += ms;
	}

	set(at: number | string): void {
		this.fixed = typeof at === 'string' ? Date.parse(at) : at;
	}
}

export interface Account {
	id: string;
	apiKey: string;
	apiSecret: string;
	ownerName: string;
	ownerEmail: string;
	businessIds: string[];
}

export interface SimEvent {
	/** Event kind as registered on webhooks, e.g. `order.paid`. */
	kind: string;
	/** Business the event belongs to (webhooks are registered per business). */
	businessId: string;
	data: JsonObject;
	at: string;
}

export type EventListener = (event: SimEvent) => void;

export interface SeedOptions {
	/** Records per seeded collection (resources may scale it); tests ask for 250+ to page. */
	size: number;
	seed: number;
}

export class State {
	readonly clock = new Clock();
	readonly accounts: Account[] = [];
	readonly businesses: JsonObject[] = [];
	random: () => number;
	private readonly collections = new Map<string, JsonObject[]>();
	private readonly listeners: EventListener[] = [];
	readonly events: SimEvent[] = [];
	private counter = 0;

	constructor(readonly options: SeedOptions) {
		this.random = rng(options.seed);
	}

	/** A named collection of records, created empty on first use. */
	col(name: string): JsonObject[] {
		let list = this.collections.get(name);
		if (!list) {
			list = [];
			this.collections.set(name, list);
		}
		return list;
	}

	/** A uuid-shaped id, deterministic for a seed. */
	id(): string {
		this.counter++;
		const hex = (n: number) =>
			Array.from({ length: n }, () => Math.floor(this.random() * 16).toString(16)).join('');
		return `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[Math.floor(this.random() * 4)]}${hex(3)}-${hex(12)}`;
	}

	pick<T>(values: readonly T[]): T {
		return values[Math.floor(this.random() * values.length)];
	}

	int(min: number, max: number): number {
		return min + Math.floor(this.random() * (max - min + 1));
	}

	accountByKey(apiKey: string | undefined, apiSecret: string | undefined): Account | undefined {
		return this.accounts.find((a) => a.apiKey === apiKey && a.apiSecret === apiSecret);
	}

	onEvent(listener: EventListener): void {
		this.listeners.push(listener);
	}

	/** Records an event and hands it to every listener (the webhook module delivers it). */
	emit(kind: string, businessId: string, data: JsonObject): SimEvent {
		const event: SimEvent = { kind, businessId, data, at: this.clock.iso() };
		this.events.push(event);
		for (const listener of this.listeners) listener(event);
		return event;
	}
}
