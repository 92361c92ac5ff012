import { createHash, hash, randomBytes } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import type { RecordSet } from '../paging/walk';
import { stable } from '../paging/walk';

/** The records one file output holds, once each, stored as digests (HashedRecordSet). */

/** Slots of a new table (8 bytes each). */
const INITIAL_SLOTS = 1024;

/**
 * The records a file export has written, in constant space: a million records must not cost a
 * million strings. Identity as SeenRecords' (`id` with its type, else sorted-key JSON), hashed with
 * SHA-256 under a random per-set key; 64 bits go into an open-addressing table at most 3/4 full
 * (8-16 bytes a record). A collision (about n²/2⁶⁵: 3·10⁻⁸ for 1,000,000) would count as a repeat.
 */
export class HashedRecordSet implements RecordSet {
	private slots = new Uint32Array(2 * INITIAL_SLOTS);
	private mask = INITIAL_SLOTS - 1;
	private readonly key = randomBytes(16).toString('hex');
	/** Records added. */
	size = 0;
	/** Records refused as already there. */
	repeats = 0;

	add(record: IDataObject): boolean {
		const [high, low] = this.hashOf(record);
		if (this.insert(high, low)) return true;
		this.repeats++;
		return false;
	}

	/** Whether the record is there, counting nothing (a record met again where windows of a read overlap). */
	has(record: IDataObject): boolean {
		const [high, low] = this.hashOf(record);
		for (let slot = high & this.mask; ; slot = (slot + 1) & this.mask) {
			const h = this.slots[2 * slot];
			const l = this.slots[2 * slot + 1];
			if (h === 0 && l === 0) return false;
			if (h === high && l === low) return true;
		}
	}

	private hashOf(record: IDataObject): [number, number] {
		const id = record.id;
		const identity = typeof id === 'string' ? `s${id}` : typeof id === 'number' ? `n${id}` : `r${stable(record)}`;
		const digest = sha256(`${this.key}${identity}`);
		// 0/0 marks an empty slot.
		return [digest.readUInt32LE(0), digest.readUInt32LE(4) || 1];
	}

	fresh(): HashedRecordSet {
		return new HashedRecordSet();
	}

	/** False when the hash was there already. */
	private insert(high: number, low: number): boolean {
		for (let slot = high & this.mask; ; slot = (slot + 1) & this.mask) {
			const h = this.slots[2 * slot];
			const l = this.slots[2 * slot + 1];
			if (h === 0 && l === 0) break;
			if (h === high && l === low) return false;
		}
		if (4 * (this.size + 1) > 3 * (this.mask + 1)) this.grow();
		for (let slot = high & this.mask; ; slot = (slot + 1) & this.mask) {
			if (this.slots[2 * slot] === 0 && this.slots[2 * slot + 1] === 0) {
				this.slots[2 * slot] = high;
				this.slots[2 * slot + 1] = low;
				this.size++;
				return true;
			}
		}
	}

	private grow(): void {
		const old = this.slots;
		this.slots = new Uint32Array(2 * old.length);
		this.mask = old.length - 1;
		for (let n = 0; n < old.length; n += 2) {
			const high = old[n];
			const low = old[n + 1];
			if (high === 0 && low === 0) continue;
			let slot = high & this.mask;
			while (this.slots[2 * slot] !== 0 || this.slots[2 * slot + 1] !== 0) slot = (slot + 1) & this.mask;
			this.slots[2 * slot] = high;
			this.slots[2 * slot + 1] = low;
		}
	}
}

/** One-shot crypto.hash (Node 20.12+) where there is one: about twice as fast as createHash. */
function sha256(text: string): Buffer {
	return typeof hash === 'function' ? hash('sha256', text, 'buffer') : createHash('sha256').update(text).digest();
}
