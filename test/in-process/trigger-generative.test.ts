/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Ignore Duplicate Deliveries, generated (issue 55): seeded bodies in 16 shapes (flat, envelopes with
 * and without ids, empty ids, Stripe-like, nested arrays, numbers as strings, unicode, decimals,
 * integers past 2^53, repeated names, arrays...), each with distinct siblings (one field changed
 * anywhere) and repeats (byte for byte, reordered, re-escaped with other whitespace and number
 * forms), sent through the harness that handles each request as n8n 2.8.4 does, in random
 * interleavings and concurrent waves, by one n8n process and by two sharing the static data, with
 * restarts. Which texts are one notification is decided by the generator's own value trees
 * (test/support/helpers/bodies.ts), never by the node's reader. Asserted:
 * - a distinct body is never answered "Duplicate delivery" (a delivery so answered has a copy that
 *   ran and was answered 2xx before it), and one process runs a notification once;
 * - a repeat answered 2xx and saved is dropped in any process while among the newest 200;
 * - with Notification ID Field set, two bodies with one id are one notification.
 * SP_SEED=<n> runs another seed; the seed and the sizes are in the test names.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Style, Value } from '../support/helpers/bodies';
import { EVENTS, identity, Num, Obj, PLATFORM_STYLES, Rng, SHAPES, sibling, write } from '../support/helpers/bodies';
import { TriggerHarness } from '../support/harness/trigger';
import { recordFigures } from '../support/helpers/figures';
import { dataCredentials, useSimulator } from '../support/helpers/sim';

const sim = useSimulator();
const SEED = Number(process.env.SP_SEED ?? 5505);
const SECRET_HEADER = 'x-sp-webhook-secret';
/** The static data window (trigger/delivery.ts DUPLICATE_WINDOW). */
const WINDOW = 200;
const MAX_WAVE = 30;
/**
 * Repeats required to be dropped at another process: among the newest WINDOW - SLACK. The static
 * data's order is the order of answers up to the requests of one wave, whose order within it only
 * n8n's timing decides (and after two processes wrote at once, up to one such wave more).
 */
const SLACK = 2 * MAX_WAVE;

const SIZES = { single: 2_800, shared: 700, idField: 450 };

let harnesses: TriggerHarness[] = [];

afterEach(async () => {
	for (const h of harnesses) await h.close();
	harnesses = [];
});

/** One request: a text of one value (its identity), and whether n8n fails to create its execution. */
interface Send {
	id: string;
	text: string;
	fail: boolean;
}

type Verdict = 'ran' | 'duplicate' | 'failed' | 'other';

interface Outcome {
	send: Send;
	/** The n8n process (and its incarnation: a restart is a new one) that got it. */
	process: string;
	wave: number;
	verdict: Verdict;
	/** The order of n8n's answers. */
	seq: number;
	httpBody: unknown;
}

/** A body's sends: its first text as the platform writes it, then 0-2 repeats of it. */
function sendsOf(rng: Rng, v: Value, id: string, repeats: number): Send[] {
	const platform = rng.pick(PLATFORM_STYLES);
	const first = write(v, platform, rng);
	const out: Send[] = [{ id, text: first, fail: rng.chance(0.01) }];
	for (let r = 0; r < repeats; r++) {
		const kind = rng.int(3);
		const style: Style = kind === 1 ? { ...platform, shuffle: true } : { shuffle: rng.chance(0.5), escapes: 0.3, spaces: 0.3, numberForms: true };
		out.push({ id, text: kind === 0 ? first : write(v, style, rng), fail: rng.chance(0.01) });
	}
	return out;
}

/**
 * The bodies of `bases` notifications in all shapes, each with 1-2 siblings, all with their repeats,
 * interleaved: a repeat follows its first copy after a few sends (most), a few hundred, or many.
 */
function schedule(rng: Rng, bases: number, idOf: (v: Value) => string = identity): { sends: Send[]; bodies: number } {
	const shapes = Object.values(SHAPES);
	const placed: Array<{ at: number; send: Send }> = [];
	let bodies = 0;
	for (let n = 0; n < bases; n++) {
		const base = shapes[n % shapes.length](rng, n);
		const family = [base];
		for (let s = 0; s < 1 + rng.int(2); s++) family.push(sibling(rng.pick(family), rng));
		for (const v of family) {
			bodies++;
			const [first, ...repeats] = sendsOf(rng, v, idOf(v), rng.chance(0.3) ? 1 + rng.int(2) : 0);
			const at = n * 2.6 + rng.next() * 3;
			placed.push({ at, send: first });
			for (const send of repeats) {
				const r = rng.next();
				const later = r < 0.7 ? rng.next() * 60 : r < 0.9 ? 60 + rng.next() * 150 : 300 + rng.next() * 900;
				placed.push({ at: at + later, send });
			}
		}
	}
	placed.sort((a, b) => a.at - b.at);
	return { sends: placed.map((p) => p.send), bodies };
}

/** The sends cut into waves of 1..MAX_WAVE requests at once. */
function waves(rng: Rng, sends: Send[]): Send[][] {
	const out: Send[][] = [];
	for (let i = 0; i < sends.length; ) {
		const size = rng.chance(0.3) ? 1 : 1 + rng.int(MAX_WAVE);
		out.push(sends.slice(i, i + size));
		i += size;
	}
	return out;
}

/** What one generated run saw, and the oracle's checks on it. */
class Run {
	readonly outcomes: Outcome[] = [];
	private seq = 0;
	/**
	 * Identities by their latest 2xx answer, oldest first: where each was answered, whether it is
	 * surely in the static data (settled), or may never be (lost). A key is saved with its own
	 * request, but when requests overlap the last one to write may have been loaded before that
	 * key's answer (n8n writes each request's copy whole): then the next write of its process saves
	 * it (docs/triggers.md). So: settled when its request was alone, or once its process wrote again
	 * alone; lost when its process restarted before. All count towards the window.
	 */
	private readonly answered = new Map<string, { process: string; settled: boolean; lost: boolean }>();
	/** Identities each process incarnation ran (its memory), and the waves it ran after a cross wave. */
	private readonly ranBy = new Map<string, Set<string>>();
	readonly violations: string[] = [];
	requiredDrops = 0;

	private readonly secrets = new Map<TriggerHarness, string>();

	/** One request to `h` as `process`, in `wave`. */
	async send(h: TriggerHarness, process: string, wave: number, send: Send): Promise<Outcome> {
		if (!this.secrets.has(h)) this.secrets.set(h, String(h.nodeStaticData.webhookSecret));
		// Most executions are created at once, some take a few ms: copies overlap in flight either way.
		const executionMs = send.text.length % 5 === 0 ? 1 + (send.text.length % 3) : 0;
		const result = await h.deliver({ headers: { [SECRET_HEADER]: this.secrets.get(h) }, raw: send.text }, { executionMs, failExecution: send.fail || undefined });
		const body = result.httpBody as IDataObject | undefined;
		const verdict: Verdict =
			result.httpStatus === 500 ? 'failed' : result.items && result.httpStatus === 200 ? 'ran' : body?.ignored === 'Duplicate delivery' ? 'duplicate' : 'other';
		const outcome = { send, process, wave, verdict, seq: ++this.seq, httpBody: result.httpBody };
		this.outcomes.push(outcome);
		return outcome;
	}

	/**
	 * One wave: each process's sends at once (two processes: both at once, a cross wave). Checks the
	 * repeats that must be dropped: answered by the same process before, or answered, saved and
	 * among the newest WINDOW - SLACK (in static data, whichever process reads it).
	 */
	async wave(wave: number, parts: Array<{ h: TriggerHarness; process: string; sends: Send[] }>): Promise<void> {
		const newest = [...this.answered.keys()].slice(-(WINDOW - SLACK));
		const saved = new Set(newest.filter((id) => this.answered.get(id)?.settled === true));
		const mine = (process: string) => this.ranBy.get(process) ?? new Set<string>();
		const before = parts.map((p) => new Set(mine(p.process)));
		const results = await Promise.all(parts.map((p) => Promise.all(p.sends.map((s) => this.send(p.h, p.process, wave, s)))));
		const alone = parts.length === 1;
		parts.forEach((p, i) => {
			for (const o of results[i]) {
				const must = before[i].has(o.send.id) ? 'ran in this process' : saved.has(o.send.id) ? 'saved among the newest' : undefined;
				if (must) this.requiredDrops++;
				if (must && o.verdict !== 'duplicate') {
					const history = this.outcomes.filter((x) => x.send.id === o.send.id && x !== o).map((x) => `${x.process}/w${x.wave}/${x.verdict}`);
					this.violations.push(`wave ${wave}, ${p.process}: a repeat (${must}) was ${o.verdict} [before: ${history.join(' ')}]: ${o.send.text.slice(0, 120)}`);
				}
				if (o.verdict === 'other') this.violations.push(`wave ${wave}: unexpected answer ${JSON.stringify(o.httpBody)}`);
			}
			// What this process answered 2xx now; a write of it alone saved what it answered before.
			const ran = results[i].filter((o) => o.verdict === 'ran').sort((a, b) => a.seq - b.seq);
			if (ran.length > 0 && alone) for (const at of this.answered.values()) if (at.process === p.process && !at.lost) at.settled = true;
			for (const o of ran) {
				this.answered.delete(o.send.id);
				this.answered.set(o.send.id, { process: p.process, settled: alone && p.sends.length === 1, lost: false });
				this.ranBy.set(p.process, mine(p.process).add(o.send.id));
			}
		});
	}

	/** A process restarted: its memory is gone; what only it would have saved again is lost. */
	restarted(process: string): void {
		for (const at of this.answered.values()) if (at.process === process && !at.settled) at.lost = true;
	}

	/** A distinct body is never dropped: every "Duplicate delivery" has a copy answered 2xx before it. */
	checkNeverDropped(): void {
		const firstRun = new Map<string, number>();
		for (const o of this.outcomes) if (o.verdict === 'ran' && !((firstRun.get(o.send.id) ?? Infinity) < o.seq)) firstRun.set(o.send.id, o.seq);
		for (const o of this.outcomes) {
			if (o.verdict === 'duplicate' && !((firstRun.get(o.send.id) ?? Infinity) < o.seq)) this.violations.push(`a distinct body was dropped: ${o.send.text.slice(0, 160)}`);
		}
		// One process incarnation runs a notification once.
		const runs = new Map<string, number>();
		for (const o of this.outcomes) if (o.verdict === 'ran') runs.set(`${o.process} ${o.send.id}`, (runs.get(`${o.process} ${o.send.id}`) ?? 0) + 1);
		for (const [key, count] of runs) if (count > 1) this.violations.push(`ran ${count} times in one process: ${key.slice(0, 160)}`);
	}

	count(verdict: Verdict): number {
		return this.outcomes.filter((o) => o.verdict === verdict).length;
	}

	/** The run's size, to SP_FIGURES (the closing note reports them). */
	figures(name: string, bodies: number, waves: number): void {
		const verdicts = Object.fromEntries((['ran', 'duplicate', 'failed', 'other'] as Verdict[]).map((v) => [v, this.count(v)]));
		recordFigures(`generative: ${name}`, { seed: SEED, bodies, deliveries: this.outcomes.length, waves, verdicts, requiredDrops: this.requiredDrops });
	}
}

async function trigger(parameters: INodeParameters = { events: EVENTS }): Promise<TriggerHarness> {
	const h = await TriggerHarness.start({ parameters, credentials: dataCredentials(sim()) });
	harnesses.push(h);
	await h.activate();
	return h;
}

const ID_FIELD = { events: EVENTS, options: { notificationIdField: 'id' } } as INodeParameters;

/** The oracle's notification with Notification ID Field = `id`: the event and a usable id, else the whole value. */
function byIdField(v: Value): string {
	if (!(v instanceof Obj)) return identity(v);
	const last = (name: string) => [...v.entries].reverse().find(([k]) => k === name)?.[1];
	const id = last('id');
	const event = last('event') ?? last('type');
	const usable = typeof id === 'string' ? id.trim() !== '' : id instanceof Num && id.digits.length + Math.max(0, id.exp) <= 15 && id.exp >= 0;
	if (!usable) return identity(v);
	return `id ${identity(event ?? null)} ${typeof id === 'string' ? `s:${id}` : `n:${identity(id as Num)}`}`;
}

describe(`Ignore Duplicate Deliveries, generated (seed ${SEED})`, () => {
	it(`one process: ${SIZES.single} notifications in 16 shapes with their siblings and repeats, in random concurrent waves: no distinct body dropped, none run twice`, async () => {
		const rng = new Rng(SEED);
		const { sends, bodies } = schedule(rng, SIZES.single);
		const h = await trigger();
		const run = new Run();
		const all = waves(rng, sends);
		for (let w = 0; w < all.length; w++) await run.wave(w, [{ h, process: 'A', sends: all[w] }]);
		run.figures('one process', bodies, all.length);
		run.checkNeverDropped();
		expect(run.violations.slice(0, 10)).toEqual([]);
		expect(bodies).toBeGreaterThan(6_800);
		expect(run.count('duplicate')).toBeGreaterThan(1_500);
		expect(run.count('failed')).toBeGreaterThan(50);
		expect(run.count('ran')).toBe(new Set(run.outcomes.filter((o) => o.verdict === 'ran').map((o) => o.send.id)).size);
	}, 180_000);

	it(`two processes sharing the static data as n8n saves it, waves at one or both at once, restarts: ${SIZES.shared} notifications; a saved repeat among the newest ${WINDOW} is dropped in either`, async () => {
		const rng = new Rng(SEED + 1);
		const { sends, bodies } = schedule(rng, SIZES.shared);
		const procs = [{ h: await trigger(), name: 'A', life: 0 }];
		const b = await procs[0].h.anotherProcess();
		harnesses.push(b);
		procs.push({ h: b, name: 'B', life: 0 });
		const tag = (p: (typeof procs)[number]) => `${p.name}#${p.life}`;
		const run = new Run();
		const all = waves(rng, sends);
		for (let w = 0; w < all.length; w++) {
			if (w > 0 && w % 70 === 0) {
				const p = rng.pick(procs);
				run.restarted(tag(p));
				await p.h.restart({ newProcess: true });
				p.life++;
			}
			if (rng.chance(0.1) && all[w].length > 1) {
				const cut = 1 + rng.int(all[w].length - 1);
				await run.wave(w, [
					{ h: procs[0].h, process: tag(procs[0]), sends: all[w].slice(0, cut) },
					{ h: procs[1].h, process: tag(procs[1]), sends: all[w].slice(cut) },
				]);
			} else {
				const p = rng.pick(procs);
				await run.wave(w, [{ h: p.h, process: tag(p), sends: all[w] }]);
			}
		}
		run.figures('two processes', bodies, all.length);
		run.checkNeverDropped();
		expect(run.violations.slice(0, 10)).toEqual([]);
		expect(bodies).toBeGreaterThan(1_600);
		expect(run.requiredDrops).toBeGreaterThan(300);
		expect(procs.map((p) => p.life).reduce((a, c) => a + c)).toBeGreaterThanOrEqual(2);
	}, 180_000);

	it(`Notification ID Field = id: ${SIZES.idField} notifications whose retries change other fields, in two processes: two bodies with one id are one notification; without a usable id the body decides`, async () => {
		const rng = new Rng(SEED + 2);
		const { sends, bodies } = schedule(rng, SIZES.idField, byIdField);
		// Retries of one notification id with the per-attempt fields changed.
		const retries: Send[] = [];
		for (let n = 0; n < SIZES.idField; n++) {
			const attempt = (k: number) =>
				new Obj([
					['event', 'order.paid'],
					['id', `evt_retry_${n}`],
					['sentAt', new Date(Date.UTC(2026, 10, 20) + n * 1000 + k * 60_000).toISOString()],
					['attempt', new Num(false, String(k + 1), 0)],
					['data', new Obj([['id', `ord_${n % 10}`]])],
				]);
			for (let k = 0; k < 1 + rng.int(3); k++) retries.push({ id: byIdField(attempt(k)), text: write(attempt(k), rng.pick(PLATFORM_STYLES), rng), fail: false });
		}
		// Each retry within the 40 sends after its first attempt: among the newest, at either process.
		const placed = sends.map((send, at) => ({ at, send }));
		let group = '';
		let start = 0;
		for (const send of retries) {
			if (send.id !== group) [group, start] = [send.id, rng.next() * sends.length];
			placed.push({ at: start + rng.next() * 40, send });
		}
		const mixed = placed.sort((x, y) => x.at - y.at).map((p) => p.send);
		const a = await trigger(ID_FIELD);
		const b = await a.anotherProcess();
		harnesses.push(b);
		const run = new Run();
		const all = waves(rng, mixed);
		for (let w = 0; w < all.length; w++) {
			const [h, process] = rng.chance(0.5) ? [a, 'A'] : [b, 'B'];
			await run.wave(w, [{ h, process, sends: all[w] }]);
		}
		run.figures('Notification ID Field', bodies + retries.length, all.length);
		run.checkNeverDropped();
		expect(run.violations.slice(0, 10)).toEqual([]);
		expect(bodies + retries.length).toBeGreaterThan(1_500);
		// Retries of one id are one notification: each id ran, and most retries were dropped (by the
		// process that ran it, or, once saved, by the other); the checks above hold each one.
		const retried = run.outcomes.filter((o) => o.send.id.includes('evt_retry_'));
		expect(new Set(retried.filter((o) => o.verdict === 'ran').map((o) => o.send.id)).size).toBe(SIZES.idField);
		expect(retried.filter((o) => o.verdict === 'duplicate').length).toBeGreaterThan((retries.length - SIZES.idField) * 0.7);
		// Bodies without a usable id fell back to the whole body, said once.
		expect([...a.logs, ...b.logs].filter((l) => l.message.includes('Notification ID Field "id" was')).length).toBeLessThanOrEqual(2);
	}, 180_000);
});
