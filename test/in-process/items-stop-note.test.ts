/**
 * The stopped run's note on its own (transport/stoppedRun.ts, issue 51): every kind of item after the
 * failing one, in the words the error's description uses. Through n8n-core: items-stop.test.ts.
 */
import { NotSent } from '../../nodes/SalesPayments/transport/gate';
import { ItemEffects, stoppedRunNote } from '../../nodes/SalesPayments/transport/stoppedRun';

describe('the note on its own: every kind of later item', () => {
	it('carried out (named by its record), maybe, refused, failed as well, read only, not sent', () => {
		const effects = new ItemEffects();
		// Item 2 fails; 3 is created (a 429 first), 4's answer is lost, 5 is refused, 6 fails before any
		// request, 7 read a page and its next request was not sent, 8 was not sent, 9 never started.
		effects.note(3, { status: 429, ms: 5 }, true);
		effects.note(3, { status: 201, ms: 5 }, true);
		effects.note(4, { code: 'ECONNRESET', ms: 5 }, true);
		effects.note(5, { status: 409, ms: 5 }, true);
		effects.note(7, { status: 200, ms: 5 }, false);
		effects.note(8, { code: 'ECONNREFUSED', ms: 5 }, true);
		const ok = (id: string) => ({ ok: true as const, value: id });
		const failed = (error: unknown) => ({ ok: false as const, error });
		const outcomes = [ok('a'), ok('b'), failed(new Error('422')), ok('c_3'), failed(new Error('lost')), failed(new Error('409')), failed(new Error('field')), failed(new NotSent()), failed(new NotSent()), undefined];
		const note = stoppedRunNote({ failed: 2, outcomes, effects, recordOf: (_, id) => `customer ${id}` });
		expect(note).toBe(
			'Item 3 was carried out before the run stopped: item 3 customer c_3. ' +
				'Item 4 may have been carried out (the answer was lost or unreadable): check on the platform. ' +
				'Item 5 was refused by the platform and not carried out. ' +
				'Item 6 failed as well and was not carried out. ' +
				'Item 7 was stopped after reading only: nothing changed. ' +
				'Items 8-9 were not sent. ' +
				'Run again only item 2 and the later items not listed as carried out, and those that may have been only once the platform shows they were not. ' +
				"Items are numbered from 0, as n8n's Item Index.",
		);
		expect(stoppedRunNote({ failed: 9, outcomes, effects, recordOf: () => undefined })).toBeUndefined();
	});
});
