/**
 * Payment links (spec 4.8): create, update, list (`paymentLinks`: the page object with `docs`),
 * details, publish/unpublish (state field `status`: active/inactive; the spec does not name it),
 * delete and the multipart image upload (`picture`: PNG, JPEG or JPG). Every route takes KEYS+BIZ
 * (the spec leaves details/publish/unpublish/delete open) and sees only the business's links.
 *
 * State rule (spec part 3): once a link has a sale, update and image upload are refused with
 * 409 Conflict. Sales are recorded by `recordPaymentLinkSale()` in-process or by the control
 * route POST /__sim/payment-links/:id/sale.
 */
import type { JsonObject, UploadedFile } from '../core';
import { invalidParams, pageOf, SimError } from '../core';
import type { Source } from '../checks';
import { Checker, deepMerge, objectBody } from '../checks';
import { hex, ofBusiness, publicView, seedDate, seedLater, seedRecords, sortRecords } from '../filtering';
import type { SimModule, Simulator } from '../server';

const PRODUCTS = ['Yoga for Beginners', 'Sourdough Masterclass', 'Guitar Basics', 'Excel for Finance', 'Mindful Mornings', 'Photo Editing Pro'];

const IMAGE_FORMATS = [
	{ extension: 'png', types: ['image/png'], magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
	{ extension: 'jpg', types: ['image/jpeg', 'image/jpg'], magic: [0xff, 0xd8, 0xff] },
];

function makeLink(sim: Simulator, businessId: string, n: number): JsonObject {
	const s = sim.state;
	const createdAt = seedDate(sim, 0, 600);
	const valueInCents = s.int(19, 999) * 100 - 10;
	return {
		id: s.id(),
		name: `${s.pick(PRODUCTS)} #${n + 1}`,
		description: 'Lifetime access to the course and its materials.',
		checkoutTemplateId: s.id(),
		valueInCents,
		preference: {
			acceptCorporationBuyer: s.random() < 0.5,
			acceptNaturalPersonBuyer: true,
			requestAddress: s.random() < 0.3,
			requestDeliveryAddress: false,
			showSellerName: true,
		},
		paymentConfiguration: {
			billet: { dueDateDelay: 3 },
			creditCard: { defaultInstallments: 1, maxInstallments: 12, invoiceDescription: 'ACME SHOP', installmentOptions: [] },
			pix: { expirationInMinutes: 30 },
		},
		supportContact: { contactEmailId: s.id() },
		advanced: { redirect: { buttonName: 'Back to the shop', url: 'https://acme-shop.example/thanks', delayInSeconds: 5 } },
		interestSettings: { sellerAbsorbsInterest: false },
		status: s.random() < 0.7 ? 'active' : 'inactive',
		url: `https://pay.example/l/${hex(sim, 10)}`,
		image: null,
		salesCount: n % 5 === 4 ? s.int(1, 40) : 0,
		createdAt,
		updatedAt: seedLater(sim, createdAt, 30),
		_businessId: businessId,
	};
}

export function paymentLinksOf(sim: Simulator, businessId: string): JsonObject[] {
	return ofBusiness(sim.state.col('paymentLinks'), businessId);
}

/** Records a sale on a link (as a purchase through it would): from then on it is locked. */
export function recordPaymentLinkSale(sim: Simulator, id: string): JsonObject {
	const link = sim.state.col('paymentLinks').find((l) => l.id === id);
	if (!link) throw new SimError(404, 'Payment link not found');
	link.salesCount = Number(link.salesCount ?? 0) + 1;
	return link;
}

/** Fields of the create and update bodies (spec part 2); the update accepts fewer. */
function checkLinkBody(body: Source, creating: boolean): void {
	const c = new Checker();
	c.str(body, 'name', 'name', creating);
	c.int(body, 'valueInCents', 'valueInCents', 0, creating);
	c.str(body, 'description', 'description');
	c.str(body, 'checkoutTemplateId', 'checkoutTemplateId');
	const preference = c.obj(body, 'preference', 'preference');
	for (const key of ['acceptCorporationBuyer', 'acceptNaturalPersonBuyer', 'requestAddress', 'requestDeliveryAddress', 'showSellerName']) {
		c.bool(preference, key, `preference.${key}`);
	}
	const config = c.obj(body, 'paymentConfiguration', 'paymentConfiguration');
	c.int(c.obj(config, 'billet', 'paymentConfiguration.billet'), 'dueDateDelay', 'paymentConfiguration.billet.dueDateDelay', 0);
	c.int(c.obj(config, 'pix', 'paymentConfiguration.pix'), 'expirationInMinutes', 'paymentConfiguration.pix.expirationInMinutes', 1);
	const card = c.obj(config, 'creditCard', 'paymentConfiguration.creditCard');
	c.int(card, 'defaultInstallments', 'paymentConfiguration.creditCard.defaultInstallments', 1);
	c.int(card, 'maxInstallments', 'paymentConfiguration.creditCard.maxInstallments', 1);
	c.str(card, 'invoiceDescription', 'paymentConfiguration.creditCard.invoiceDescription');
	(c.list(card, 'installmentOptions', 'paymentConfiguration.creditCard.installmentOptions') ?? []).forEach((o, n) => {
		const label = `paymentConfiguration.creditCard.installmentOptions[${n}]`;
		c.int(o, 'installments', `${label}.installments`, 1, true);
		c.int(o, 'installmentValueInCents', `${label}.installmentValueInCents`, 0, true);
		c.num(o, 'interestRate', `${label}.interestRate`, 0);
	});
	c.str(c.obj(body, 'supportContact', 'supportContact'), 'contactEmailId', 'supportContact.contactEmailId');
	const redirect = c.obj(c.obj(body, 'advanced', 'advanced'), 'redirect', 'advanced.redirect');
	if (redirect) {
		const url = c.str(redirect, 'url', 'advanced.redirect.url', true);
		if (url !== undefined && !/^https?:\/\/\S+$/.test(url)) c.bad.push('advanced.redirect.url');
		c.str(redirect, 'buttonName', 'advanced.redirect.buttonName');
		c.int(redirect, 'delayInSeconds', 'advanced.redirect.delayInSeconds', 0);
	}
	c.bool(c.obj(body, 'interestSettings', 'interestSettings'), 'sellerAbsorbsInterest', 'interestSettings.sellerAbsorbsInterest');
	c.done();
}

function imageFormat(file: UploadedFile): (typeof IMAGE_FORMATS)[number] | undefined {
	const type = file.contentType.split(';')[0].trim().toLowerCase();
	const format = IMAGE_FORMATS.find((f) => f.types.includes(type));
	if (!format || file.data.length < format.magic.length) return undefined;
	return format.magic.every((byte, n) => file.data[n] === byte) ? format : undefined;
}

export const simModule: SimModule = {
	seed(sim) {
		seedRecords(sim, 'paymentLinks', (businessId, n) => makeLink(sim, businessId, n));
	},
	routes(router, sim) {
		const own = (id: string, businessId: string | undefined): JsonObject => {
			const link = sim.state.col('paymentLinks').find((l) => l.id === id && l._businessId === businessId);
			if (!link) throw new SimError(404, 'Payment link not found');
			return link;
		};
		const unlocked = (link: JsonObject, what: string) => {
			if (Number(link.salesCount ?? 0) > 0) {
				throw new SimError(409, `Payment link already has sales; its ${what} can no longer be changed`);
			}
		};

		router.add('POST', '/payment-links', 'keys+biz', (ctx) => {
			const body = objectBody(ctx);
			checkLinkBody(body, true);
			const now = sim.state.clock.iso();
			const link = {
				...body,
				id: sim.state.id(),
				status: 'inactive',
				url: `https://pay.example/l/${hex(sim, 10)}`,
				image: null,
				salesCount: 0,
				createdAt: now,
				updatedAt: now,
				_businessId: ctx.businessId!,
			} as JsonObject;
			sim.state.col('paymentLinks').push(link);
			return { status: 201, data: { paymentLink: publicView(link) } };
		});

		router.add('PATCH', '/payment-links/:paymentLinkId', 'keys+biz', (ctx) => {
			const link = own(ctx.params.paymentLinkId, ctx.businessId);
			unlocked(link, 'fields');
			const body = objectBody(ctx);
			checkLinkBody(body, false);
			const patch: Source = {};
			for (const [key, value] of Object.entries(body)) if (!key.startsWith('_') && !['id', 'status', 'salesCount', 'image', 'url'].includes(key)) patch[key] = value;
			Object.assign(link, deepMerge(link, patch), { updatedAt: sim.state.clock.iso() });
			return { data: { updated: true } };
		});

		router.add('GET', '/payment-links/list', 'keys+biz', (ctx) => {
			const docs = sortRecords(paymentLinksOf(sim, ctx.businessId!), 'createdAt', 'DESC').map(publicView);
			return { data: { paymentLinks: pageOf(docs, ctx.query, sim.maxLimit) } };
		});

		router.add('GET', '/payment-links/details/:paymentLinkId', 'keys+biz', (ctx) => ({
			data: { paymentLink: publicView(own(ctx.params.paymentLinkId, ctx.businessId)) },
		}));

		for (const [action, status] of [
			['publish', 'active'],
			['unpublish', 'inactive'],
		] as const) {
			router.add('PATCH', `/payment-links/${action}/:paymentLinkId`, 'keys+biz', (ctx) => {
				const link = own(ctx.params.paymentLinkId, ctx.businessId);
				link.status = status;
				link.updatedAt = sim.state.clock.iso();
				return { data: { paymentLink: publicView(link) } };
			});
		}

		router.add('DELETE', '/payment-links/delete/:paymentLinkId', 'keys+biz', (ctx) => {
			const link = own(ctx.params.paymentLinkId, ctx.businessId);
			const list = sim.state.col('paymentLinks');
			list.splice(list.indexOf(link), 1);
			return { data: { deleted: true } };
		});

		router.add('PATCH', '/payment-links/upload-image/:paymentLinkId', 'keys+biz', (ctx) => {
			const link = own(ctx.params.paymentLinkId, ctx.businessId);
			unlocked(link, 'image');
			if (!(ctx.headers['content-type'] ?? '').startsWith('multipart/form-data')) throw invalidParams('picture');
			const file = ctx.files.find((f) => f.field === 'picture');
			if (!file) throw invalidParams('picture');
			const format = imageFormat(file);
			if (!format) throw invalidParams('picture');
			const path = `payment-links/${link.id}/${hex(sim, 16)}.${format.extension}`;
			const image = { name: file.filename, path, url: `https://cdn.pay.example/${path}`, isPublic: true, extension: format.extension };
			link.image = image;
			link.updatedAt = sim.state.clock.iso();
			return { data: { image } };
		});

		// Control route: a sale through the link, for tests and the demo running n8n elsewhere.
		router.add('POST', '/__sim/payment-links/:paymentLinkId/sale', 'none', (ctx) => {
			const link = recordPaymentLinkSale(sim, ctx.params.paymentLinkId);
			return { raw: { id: link.id, salesCount: link.salesCount } };
		});
	},
};
