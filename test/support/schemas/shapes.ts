/**
 * The records the platform answers with, as JSON Schema, for the editor's schema preview. Fields
 * the spec documents (platform-api-spec.md part 2 and 4) are typed as it says; where it says
 * "not shown", the shape is the simulator's documented choice (test/support/simulator/routes),
 * which is one reading of the platform, not the platform: every object stays open to fields
 * it adds. Nullable fields list `null` second: the editor shows the first type.
 */

export interface JsonSchema {
	type: string | string[];
	description?: string;
	properties?: Record<string, JsonSchema>;
	items?: JsonSchema;
	additionalProperties?: boolean | JsonSchema;
}

export const str: JsonSchema = { type: 'string' };
export const int: JsonSchema = { type: 'integer' };
export const num: JsonSchema = { type: 'number' };
export const bool: JsonSchema = { type: 'boolean' };

export function obj(properties: Record<string, JsonSchema>): JsonSchema {
	return { type: 'object', properties };
}

export function arr(items: JsonSchema): JsonSchema {
	return { type: 'array', items };
}

/** The same value, or null (e.g. `paidAt` of an unpaid order). */
export function orNull(schema: JsonSchema): JsonSchema {
	return { ...schema, type: [schema.type as string, 'null'] };
}

const text = (...keys: string[]) => Object.fromEntries(keys.map((k) => [k, str]));

// --- shapes of the spec (part 2) ---

export const document = obj(text('type', 'number'));
export const phone = obj({ ...text('areaCode', 'ddd', 'number'), isMobile: bool });
export const address = obj(text('zipCode', 'street', 'complement', 'neighborhood', 'city', 'state', 'number'));

export const balance = {
	accountFundsInCents: int,
	toBeReleasedFundsInCents: int,
	lastTimeBalanceWasCalculated: str,
	totalFundsInCents: int,
	blockedFundsInCents: int,
};

export const business = {
	...text('id', 'createdAt', 'name'),
	document,
	owner: obj({ ...text('id', 'name', 'email'), document }),
	plan: obj({ ...text('id', 'description', 'name', 'status'), isDefault: bool }),
	bankAccounts: arr(
		obj({
			agencyNumber: orNull(str),
			accountNumber: orNull(str),
			name: str,
			bankCode: orNull(str),
			isDefault: bool,
			...text('externalReferenceId', 'id', 'pixKey', 'pixType'),
		}),
	),
};

export const refund = {
	...text('id', 'orderId', 'buyerEmail', 'paidAt', 'productName', 'supportEmail'),
	valueInCents: int,
	...text('requestAt', 'createdAt', 'updatedAt', 'motive', 'description', 'status', 'userId'),
	paymentMethod: arr(str),
	buyerRevertPix: obj(text('pixKey', 'pixType')),
	statusHistory: arr(obj(text('status', 'date'))),
};

const subscriptionCustomer = obj({
	email: str,
	phone,
	billingAddress: address,
	deliveryAddress: address,
	document: obj(text('type')),
	...text('userId', 'externalReferenceId'),
});

/** The fields both subscription answers carry (the filter's element and the single one). */
export const subscriptionCommon = {
	...text('id', 'name', 'periodicity'),
	numberRecurrences: int,
	...text('status', 'subscriptionPaymentStatus'),
	customer: subscriptionCustomer,
	recurrenceValueInCents: int,
	...text('expiration', 'paymentMethod'),
	creditCard: orNull(obj({ ...text('nickname', 'last4Numbers', 'holderName'), expiresAtMonth: int, expiresAtYear: int, flag: str })),
	// The product's fields are not shown: the simulator gives id, name and type.
	orderItem: obj({ product: obj(text('id', 'name', 'type')), unitValueInCents: int, quantity: int }),
	repeatIndefinitely: bool,
	subscribedAt: str,
	customValue: obj({ recurrenceFrom: orNull(int), recurrenceTo: orNull(int), valueInCents: orNull(int) }),
};

/** Subscription Simplify: the customer's email and the product lifted to the top level. */
export const subscriptionSimple = text('customerEmail', 'productId', 'productName');

/** One recurrence (not shown): the simulator's number, status, value and due date. */
export const recurrence = obj({ number: int, status: str, valueInCents: int, dueDate: str });

export const image = { ...text('name', 'path', 'url'), isPublic: bool, extension: str };

/** The charge request's buyer and items (spec part 2), as the order shows them (not shown; the simulator keeps them). */
const orderBuyer = obj({ ...text('customerId', 'name', 'email'), document, phone, address, deliveryAddress: address });
const orderItem = obj({
	...text('externalReferenceId', 'name', 'description', 'imageReference', 'paymentLinkId'),
	quantity: int,
	priceInCents: int,
	commissionedParticipants: arr(obj({ commissionedId: str, commissionedValueInCents: int, commissionedPercentage: num })),
});
const orderPayment = obj({
	method: str,
	numberInstallments: int,
	valueInCents: int,
	// The card as sent, without its token (never returned).
	creditCard: obj({ ...text('flag', 'last4Numbers'), expiresAtMonth: int, expiresAtYear: int, holderName: str }),
	status: str,
});

export const order = {
	...text('id', 'status', 'date'),
	paidAt: orNull(str),
	orderBuyer,
	items: arr(orderItem),
	payments: arr(orderPayment),
	coupon: orNull(obj({})),
	statusHistory: arr(obj(text('status', 'date'))),
	metadata: arr(obj(text('key', 'value'))),
};

export const webhook = {
	...text('id', 'account', 'queue', 'name', 'status'),
	events: arr(str),
	dispatchers: arr(obj({ type: str, headers: { type: 'object', additionalProperties: str }, method: str, url: str })),
	notifyOnFail: orNull(obj(text('email', 'name'))),
	...text('createdAt', 'updatedAt'),
};

export const webhookQueue = { ...text('id', 'name', 'status', 'createdAt', 'updatedAt'), messagesAvailable: int };

export const device = text('id', 'name', 'fingerprint', 'userAgent', 'accountId', 'status', 'createdAt');

// --- records whose fields are not shown: the simulator's choices ---

export const commission = {
	...text('id', 'orderId'),
	productId: orNull(str),
	productName: orNull(str),
	...text('commissionedName', 'commissionedEmail', 'role'),
	percentage: num,
	valueInCents: int,
	...text('status', 'createdAt', 'releaseAt'),
};

export const customer = {
	...text('id', 'name', 'email'),
	document,
	phone,
	address,
	deliveryAddress: address,
	...text('createdAt', 'updatedAt'),
};

export const movement = {
	...text('id', 'type'),
	valueInCents: int,
	...text('subject', 'description', 'hash', 'originType', 'referenceId', 'groupId', 'createdAt'),
};

export const offer = {
	...text('id', 'productId', 'name'),
	valueInCents: int,
	status: str,
	paymentMethods: arr(str),
	maxInstallments: int,
	createdAt: str,
};

export const paymentLink = {
	...text('id', 'name', 'description', 'checkoutTemplateId'),
	valueInCents: int,
	preference: obj(
		Object.fromEntries(
			['acceptCorporationBuyer', 'acceptNaturalPersonBuyer', 'requestAddress', 'requestDeliveryAddress', 'showSellerName'].map((k) => [k, bool]),
		),
	),
	paymentConfiguration: obj({
		billet: obj({ dueDateDelay: int }),
		creditCard: obj({
			defaultInstallments: int,
			maxInstallments: int,
			invoiceDescription: str,
			installmentOptions: arr(obj({ installments: int, installmentValueInCents: int, interestRate: num })),
		}),
		pix: obj({ expirationInMinutes: int }),
	}),
	supportContact: obj(text('contactEmailId')),
	advanced: obj({ redirect: obj({ ...text('buttonName', 'url'), delayInSeconds: int }) }),
	interestSettings: obj({ sellerAbsorbsInterest: bool }),
	// Not named by the spec: the simulator's state field (active after Publish, inactive after Unpublish).
	status: str,
	url: str,
	image: orNull(obj(image)),
	salesCount: int,
	...text('createdAt', 'updatedAt'),
};

export const pixel = text('id', 'name', 'platform', 'pixelId', 'createdAt', 'updatedAt');

export const product = {
	...text('id', 'name', 'description', 'type', 'status'),
	priceInCents: int,
	...text('createdAt', 'updatedAt'),
};

export const sale = {
	...text('id', 'orderId', 'status', 'paymentMethod'),
	installments: int,
	valueInCents: int,
	customer: obj(text('name', 'email')),
	product: obj({ ...text('id', 'name'), quantity: int }),
	createdAt: str,
	paidAt: orNull(str),
};

export const voucher = {
	...text('id', 'code', 'status'),
	discount: obj({ type: str, percentage: num, valueInCents: int }),
	redeemedAt: orNull(str),
	createdAt: str,
};

export const withdrawRequest = {
	id: str,
	valueInCents: int,
	feeInCents: int,
	netValueInCents: int,
	status: str,
	bankAccount: obj({ ...text('bankCode', 'agencyNumber', 'accountNumber'), pixKey: orNull(str) }),
	...text('createdAt', 'updatedAt'),
};
