/**
 * Customers (spec 4.7): list (KEYS+BIZ, filters `email`, `documentNumber` and the literal date
 * keys `createdAt[startsAt]` ... `updatedAt[endsAt]`), get and remove (KEYS: the record is found
 * among the businesses of the API key's account), create and update (not shown in the spec: the
 * simulator takes KEYS+BIZ and the buyer shape of the charge request, and keeps extra fields).
 * Refusals chosen where the spec is silent: 404 unknown customer, 409 email already used in the
 * business, 400 `Invalid param: [...]` for malformed fields.
 */
import type { Json, JsonObject } from '../core';
import { pageOf, SimError, str } from '../core';
import type { Source } from '../checks';
import { Checker, deepMerge, objectBody } from '../checks';
import { hex, inDateRange, ofBusiness, ownedBy, publicView, readDate, seedDate, seedLater, seedRecords, sortRecords } from '../filtering';
import type { SimModule, Simulator } from '../server';

const FIRST = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elisa', 'Fabio', 'Gabriela', 'Heitor', 'Isabela', 'Joao', 'Larissa', 'Marcos'];
const LAST = ['Almeida', 'Barbosa', 'Costa', 'Duarte', 'Ferreira', 'Gomes', 'Lima', 'Martins', 'Nunes', 'Oliveira'];
const CITIES: Array<[string, string]> = [
	['Sao Paulo', 'SP'],
	['Rio de Janeiro', 'RJ'],
	['Belo Horizonte', 'MG'],
	['Curitiba', 'PR'],
	['Recife', 'PE'],
];

function digits(sim: Simulator, n: number): string {
	return Array.from({ length: n }, () => String(sim.state.int(0, 9))).join('');
}

function makeCustomer(sim: Simulator, businessId: string, n: number): JsonObject {
	const s = sim.state;
	const first = FIRST[n % FIRST.length];
	const last = LAST[(n * 7 + 3) % LAST.length];
	const [city, state] = s.pick(CITIES);
	const createdAt = seedDate(sim, 0, 600);
	const updatedAt = s.random() < 0.5 ? createdAt : seedLater(sim, createdAt, 60);
	return {
		id: s.id(),
		name: `${first} ${last}`,
		email: `${first}.${last}.${n}.${hex(sim, 4)}@mail.example`.toLowerCase(),
		document: { type: 'CPF', number: digits(sim, 11) },
		phone: { areaCode: '+55', ddd: String(s.int(11, 99)), number: `9${digits(sim, 8)}`, isMobile: true },
		address: {
			zipCode: `${digits(sim, 5)}-${digits(sim, 3)}`,
			street: `Rua ${s.pick(LAST)}`,
			complement: s.random() < 0.3 ? `Apt ${s.int(1, 200)}` : '',
			neighborhood: 'Centro',
			city,
			state,
			number: String(s.int(1, 3000)),
		},
		createdAt,
		updatedAt,
		_businessId: businessId,
	};
}

/** The customers of a business (records with internal fields). */
export function customersOf(sim: Simulator, businessId: string): JsonObject[] {
	return ofBusiness(sim.state.col('customers'), businessId);
}

/** Checks the buyer-shape fields of a create or update body; returns them with the extras. */
function checkCustomerBody(body: Source, creating: boolean): Source {
	const c = new Checker();
	c.str(body, 'name', 'name', creating);
	c.email(body, 'email', 'email', creating);
	const document = c.obj(body, 'document', 'document');
	if (document) {
		c.str(document, 'type', 'document.type', true);
		c.str(document, 'number', 'document.number', true);
	}
	const phone = c.obj(body, 'phone', 'phone');
	if (phone) {
		for (const key of ['areaCode', 'ddd']) c.str(phone, key, `phone.${key}`);
		c.str(phone, 'number', 'phone.number', true);
		c.bool(phone, 'isMobile', 'phone.isMobile');
	}
	for (const group of ['address', 'deliveryAddress']) {
		const address = c.obj(body, group, group);
		if (address) {
			for (const key of ['zipCode', 'street', 'complement', 'neighborhood', 'city', 'state', 'number']) {
				c.str(address, key, `${group}.${key}`);
			}
		}
	}
	c.done();
	// Internal fields cannot be set from outside.
	const out: Source = {};
	for (const [key, value] of Object.entries(body)) if (!key.startsWith('_') && key !== 'id') out[key] = value;
	return out;
}

function emailTaken(sim: Simulator, businessId: string, email: string, exceptId?: string): boolean {
	return customersOf(sim, businessId).some(
		(c) => c.id !== exceptId && String(c.email).toLowerCase() === email.toLowerCase(),
	);
}

export const simModule: SimModule = {
	seed(sim) {
		seedRecords(sim, 'customers', (businessId, n) => makeCustomer(sim, businessId, n));
	},
	routes(router, sim) {
		const find = (id: string) => sim.state.col('customers').find((c) => c.id === id);

		router.add('GET', '/customers/list', 'keys+biz', (ctx) => {
			const q = ctx.query;
			const email = str(q.email)?.trim().toLowerCase();
			const documentNumber = str(q.documentNumber)?.replace(/\D/g, '');
			const createdFrom = readDate(q, 'createdAt[startsAt]');
			const createdTo = readDate(q, 'createdAt[endsAt]');
			const updatedFrom = readDate(q, 'updatedAt[startsAt]');
			const updatedTo = readDate(q, 'updatedAt[endsAt]');
			const found = customersOf(sim, ctx.businessId!).filter((c) => {
				const doc = (c.document as JsonObject | undefined)?.number;
				return (
					(!email || String(c.email).toLowerCase() === email) &&
					(!documentNumber || String(doc ?? '').replace(/\D/g, '') === documentNumber) &&
					inDateRange(c.createdAt, createdFrom, createdTo) &&
					inDateRange(c.updatedAt, updatedFrom, updatedTo)
				);
			});
			const sorted = sortRecords(found, 'createdAt', 'DESC').map(publicView);
			return { data: pageOf(sorted, q, sim.maxLimit) };
		});

		router.add('GET', '/customers/:customerId', 'keys', (ctx) => {
			const customer = find(ctx.params.customerId);
			if (!ownedBy(sim, customer, ctx.accountId)) throw new SimError(404, 'Customer not found');
			return { data: { customer: publicView(customer!) } };
		});

		router.add('POST', '/customers', 'keys+biz', (ctx) => {
			const fields = checkCustomerBody(objectBody(ctx), true);
			if (emailTaken(sim, ctx.businessId!, String(fields.email))) {
				throw new SimError(409, 'A customer with this email already exists');
			}
			const now = sim.state.clock.iso();
			const customer = {
				id: sim.state.id(),
				...fields,
				createdAt: now,
				updatedAt: now,
				_businessId: ctx.businessId!,
			} as JsonObject;
			sim.state.col('customers').push(customer);
			return { status: 201, data: { customer: publicView(customer) } };
		});

		router.add('PATCH', '/customers/update/:customerId', 'keys+biz', (ctx) => {
			const customer = find(ctx.params.customerId);
			if (!customer || customer._businessId !== ctx.businessId) throw new SimError(404, 'Customer not found');
			const fields = checkCustomerBody(objectBody(ctx), false);
			if (!Object.keys(fields).length) throw new SimError(400, 'Invalid param: [body]');
			if (typeof fields.email === 'string' && emailTaken(sim, ctx.businessId!, fields.email, String(customer.id))) {
				throw new SimError(409, 'A customer with this email already exists');
			}
			const merged = deepMerge(customer, fields) as Record<string, Json>;
			Object.assign(customer, merged, { updatedAt: sim.state.clock.iso() });
			return { data: { customer: publicView(customer) } };
		});

		router.add('DELETE', '/customers/remove/:customerId', 'keys', (ctx) => {
			const list = sim.state.col('customers');
			const index = list.findIndex((c) => c.id === ctx.params.customerId);
			if (index === -1 || !ownedBy(sim, list[index], ctx.accountId)) throw new SimError(404, 'Customer not found');
			list.splice(index, 1);
			return { data: { deleted: true } };
		});
	},
};
