import { DEFAULT_PAGE_SIZE } from '../../nodes/SalesPayments/paging/pages';
import { runNode } from '../support/harness/n8n-core';
import { expectAuth, jsonOf, listed, primaryRecords, runListSearch } from '../support/helpers/reads';
import { dataCredentials, useSimulator } from '../support/helpers/sim';
import type { JsonObject } from '../support/simulator/core';
import { publicView } from '../support/simulator/filtering';

const sim = useSimulator({ size: 120 });

beforeEach(() => sim().clearRequests());

async function run(operation: string, parameters: Record<string, unknown>) {
	return await runNode(
		{ parameters: { resource: 'customer', operation, ...parameters } as never },
		{ credentials: dataCredentials(sim()) },
	);
}

/** A customer of the primary business that no other test touches. */
function customerAt(index: number): JsonObject {
	return listed(sim(), 'customers')[index];
}

const byId = (id: unknown) => ({ __rl: true, mode: 'id', value: id });

describe('Customer: Get Many', () => {
	it('seeds at least `size` customers for the primary business and some for others', () => {
		expect(primaryRecords(sim(), 'customers').length).toBeGreaterThanOrEqual(sim().state.options.size);
		const others = sim().state.col('customers').filter((c) => c._businessId !== sim().credentials.businessId);
		expect(others.length).toBeGreaterThan(0);
	});

	it('with Limit sends KEYS+BIZ with page/limit and returns the customers as listed', async () => {
		const { items, error } = await run('getMany', { limit: 15 });
		expect(error).toBeUndefined();
		const [req, ...more] = sim().apiRequests;
		expect(more).toHaveLength(0);
		expect(req.method).toBe('GET');
		expect(req.path).toBe('/customers/list');
		expect(req.query).toEqual({ page: '1', limit: '15' });
		expect(req.body).toBeUndefined();
		expectAuth(sim(), req, 'keys+biz');
		expect(jsonOf(items)).toEqual(listed(sim(), 'customers').slice(0, 15));
		expect(items.map((i) => i.pairedItem)).toEqual(items.map(() => ({ item: 0 })));
	});

	it('with Return All walks every page and returns each customer of the business once', async () => {
		const all = listed(sim(), 'customers');
		const { items, error } = await run('getMany', { returnAll: true, pagination: { pageSize: 50 } });
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual(all);
		expect(sim().apiRequests.map((r) => r.query.page)).toEqual(['1', '2', '3']);
		for (const r of sim().apiRequests) expectAuth(sim(), r, 'keys+biz');
	});

	it('filters go out as literal query keys and narrow the list', async () => {
		const target = customerAt(7);
		const { items, error } = await run('getMany', {
			returnAll: true,
			filters: {
				email: target.email,
				documentNumber: (target.document as JsonObject).number,
				createdAfter: '2023-01-01T00:00:00Z',
				createdBefore: '2030-01-01T00:00:00.000Z',
				updatedAfter: '2023-01-01T00:00:00.000Z',
				updatedBefore: '2030-01-01T03:00:00+03:00',
			},
		});
		expect(error).toBeUndefined();
		expect(sim().apiRequests[0].query).toEqual({
			email: target.email,
			documentNumber: (target.document as JsonObject).number,
			'createdAt[startsAt]': '2023-01-01T00:00:00.000Z',
			'createdAt[endsAt]': '2030-01-01T00:00:00.000Z',
			'updatedAt[startsAt]': '2023-01-01T00:00:00.000Z',
			'updatedAt[endsAt]': '2030-01-01T00:00:00.000Z',
			page: '1',
			limit: String(DEFAULT_PAGE_SIZE),
		});
		expect(jsonOf(items)).toEqual([target]);
	});

	it('a date range keeps only the customers created inside it', async () => {
		const from = '2024-06-01T00:00:00.000Z';
		const to = '2024-12-31T23:59:59.999Z';
		const expected = listed(sim(), 'customers').filter(
			(c) => String(c.createdAt) >= from && String(c.createdAt) <= to,
		);
		expect(expected.length).toBeGreaterThan(0);
		const { items } = await run('getMany', { returnAll: true, filters: { createdAfter: from, createdBefore: to } });
		expect(jsonOf(items)).toEqual(expected);
	});

	it('a malformed email filter is refused before any request', async () => {
		const { error } = await run('getMany', { filters: { email: 'not-an-email' } });
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toContain('Email');
		expect(sim().apiRequests).toHaveLength(0);
	});
});

describe('Customer: Get', () => {
	it('sends KEYS only and outputs the `customer` object', async () => {
		const target = customerAt(3);
		const { items, error } = await run('get', { customerId: byId(target.id) });
		expect(error).toBeUndefined();
		const [req] = sim().apiRequests;
		expect(req.method).toBe('GET');
		expect(req.path).toBe(`/customers/${String(target.id)}`);
		expect(req.query).toEqual({});
		expectAuth(sim(), req, 'keys');
		expect(jsonOf(items)).toEqual([target]);
	});

	it('the customer locator lists the business customers (From list)', async () => {
		const target = customerAt(0);
		const result = await runListSearch(sim(), 'searchCustomers', String(target.email));
		expect(result.results).toEqual([
			{ name: `${String(target.name)} <${String(target.email)}>`, value: target.id, url: undefined },
		]);
		const [req] = sim().apiRequests;
		expect(req.path).toBe('/customers/list');
		expectAuth(sim(), req, 'keys+biz');
	});

	it('a missing customer ID is refused before any request', async () => {
		// An empty required field stops n8n itself before the node runs; blanks reach the node.
		const { error } = await run('get', { customerId: byId('   ') });
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toBe('Customer is required');
		expect(sim().apiRequests).toHaveLength(0);
	});

	it('an unknown customer gives the platform 404', async () => {
		const { error } = await run('get', { customerId: byId('00000000-0000-4000-8000-000000000000') });
		expect(error?.name).toBe('NodeApiError');
		expect(error?.httpCode).toBe('404');
		expect(error?.message).toBe('Customer not found');
	});
});

describe('Customer: Create', () => {
	it('sends KEYS+BIZ and the buyer shape with the pass-through fields, and outputs the customer', async () => {
		const { items, error } = await run('create', {
			name: 'Marina Prado',
			email: 'marina.prado@mail.example',
			additionalFields: {
				document: { values: { type: 'CPF', number: '12345678909' } },
				phone: { values: { areaCode: '+55', ddd: '11', number: '912345678', isMobile: true } },
				address: {
					values: {
						zipCode: '01310-100',
						street: 'Avenida Paulista',
						number: '1000',
						complement: '',
						neighborhood: 'Bela Vista',
						city: 'Sao Paulo',
						state: 'SP',
					},
				},
				extraFields: '{"externalReferenceId":"crm-991","name":"ignored"}',
			},
		});
		expect(error).toBeUndefined();
		const [req, ...more] = sim().apiRequests;
		expect(more).toHaveLength(0);
		expect(req.method).toBe('POST');
		expect(req.path).toBe('/customers');
		expectAuth(sim(), req, 'keys+biz');
		expect(req.body).toEqual({
			externalReferenceId: 'crm-991',
			name: 'Marina Prado',
			email: 'marina.prado@mail.example',
			document: { type: 'CPF', number: '12345678909' },
			phone: { areaCode: '+55', ddd: '11', number: '912345678', isMobile: true },
			address: {
				zipCode: '01310-100',
				street: 'Avenida Paulista',
				number: '1000',
				neighborhood: 'Bela Vista',
				city: 'Sao Paulo',
				state: 'SP',
			},
		});
		expect(req.status).toBe(201);
		const stored = primaryRecords(sim(), 'customers').find((c) => c.email === 'marina.prado@mail.example');
		expect(stored).toBeDefined();
		expect(jsonOf(items)).toEqual([publicView(stored!)]);
		expect(items[0].json.externalReferenceId).toBe('crm-991');
	});

	it('a missing Name is refused before any request', async () => {
		const { error } = await run('create', { name: '  ', email: 'a@b.example' });
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toBe('Name is required');
		expect(sim().apiRequests).toHaveLength(0);
	});

	it('a malformed Email is refused before any request', async () => {
		const { error } = await run('create', { name: 'Someone', email: 'someone@nowhere' });
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toContain('Email must be a valid email address');
		expect(sim().apiRequests).toHaveLength(0);
	});

	it('a document without its number is refused before any request', async () => {
		const { error } = await run('create', {
			name: 'Someone',
			email: 'someone@mail.example',
			additionalFields: { document: { values: { type: 'CPF', number: '' } } },
		});
		expect(error?.message).toBe('Document Number is required when a document is given');
		expect(sim().apiRequests).toHaveLength(0);
	});

	it('invalid Extra Fields (JSON) are refused before any request', async () => {
		const { error } = await run('create', {
			name: 'Someone',
			email: 'someone@mail.example',
			additionalFields: { extraFields: '{not json' },
		});
		expect(error?.message).toContain('Extra Fields (JSON) is not valid JSON');
		expect(sim().apiRequests).toHaveLength(0);
	});

	it('an email already used in the business gives the platform 409', async () => {
		const { error } = await run('create', { name: 'Copy', email: String(customerAt(9).email) });
		expect(error?.name).toBe('NodeApiError');
		expect(error?.httpCode).toBe('409');
		expect(error?.message).toBe('A customer with this email already exists');
	});
});

describe('Customer: Update', () => {
	it('sends KEYS+BIZ and only the changed fields; the platform keeps the others', async () => {
		const target = customerAt(11);
		const { items, error } = await run('update', {
			customerId: { __rl: true, mode: 'list', value: target.id },
			updateFields: {
				name: 'Renamed Person',
				phone: { values: { number: '987654321', isMobile: false } },
			},
		});
		expect(error).toBeUndefined();
		const [req] = sim().apiRequests;
		expect(req.method).toBe('PATCH');
		expect(req.path).toBe(`/customers/update/${String(target.id)}`);
		expectAuth(sim(), req, 'keys+biz');
		expect(req.body).toEqual({ name: 'Renamed Person', phone: { number: '987654321', isMobile: false } });
		const out = items[0].json;
		expect(out.id).toBe(target.id);
		expect(out.name).toBe('Renamed Person');
		expect(out.email).toBe(target.email);
		expect(out.phone).toEqual({ ...(target.phone as JsonObject), number: '987654321', isMobile: false });
	});

	it('no field to change is refused before any request', async () => {
		const { error } = await run('update', { customerId: byId(customerAt(12).id), updateFields: {} });
		expect(error?.message).toBe('Update Fields: set at least one field to change');
		expect(sim().apiRequests).toHaveLength(0);
	});

	it('a malformed Email is refused before any request', async () => {
		const { error } = await run('update', { customerId: byId(customerAt(12).id), updateFields: { email: 'x@' } });
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toContain('Email must be a valid email address');
		expect(sim().apiRequests).toHaveLength(0);
	});
});

describe('Customer: Delete', () => {
	it('sends KEYS only, outputs {deleted} and the customer is gone', async () => {
		const target = customerAt(20);
		const { items, error } = await run('delete', { customerId: byId(target.id) });
		expect(error).toBeUndefined();
		const [req] = sim().apiRequests;
		expect(req.method).toBe('DELETE');
		expect(req.path).toBe(`/customers/remove/${String(target.id)}`);
		expect(req.body).toBeUndefined();
		expectAuth(sim(), req, 'keys');
		expect(jsonOf(items)).toEqual([{ deleted: true }]);
		expect(sim().state.col('customers').some((c) => c.id === target.id)).toBe(false);
		const again = await run('get', { customerId: byId(target.id) });
		expect(again.error?.httpCode).toBe('404');
	});

	it('an ID with a slash is refused before any request', async () => {
		const { error } = await run('delete', { customerId: byId('abc/def') });
		expect(error?.message).toBe('Customer "abc/def" is not a valid ID (letters, digits, "-" and "_" only, at most 128)');
		expect(sim().apiRequests).toHaveLength(0);
	});
});
