import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

/**
 * The "From List" of File Options › Columns › Field: the fields of the list's records as its
 * schema preview shows them (nodes/SalesPayments/__schema__, the Get Many of each resource; the
 * test/in-process/schemas.test.ts keeps the two alike), dot paths for nested fields. A field not
 * listed can still be typed By Name.
 */

/** Each list's fields, space-separated, in the schema's order. */
const LIST_FIELDS: Record<string, string> = {
	business:
		'id createdAt name document.type document.number owner.id owner.name owner.email owner.document.type owner.document.number plan.id plan.description plan.name plan.status plan.isDefault bankAccounts',
	commission:
		'id orderId productId productName commissionedName commissionedEmail role percentage valueInCents value status createdAt releaseAt',
	customer:
		'id name email document.type document.number phone.areaCode phone.ddd phone.number phone.isMobile address.zipCode address.street address.complement address.neighborhood address.city address.state address.number deliveryAddress.zipCode deliveryAddress.street deliveryAddress.complement deliveryAddress.neighborhood deliveryAddress.city deliveryAddress.state deliveryAddress.number createdAt updatedAt',
	movement:
		'id type valueInCents value subject description hash originType referenceId groupId createdAt',
	offer:
		'id productId name valueInCents value status paymentMethods maxInstallments createdAt',
	paymentLink:
		'id name description checkoutTemplateId valueInCents value preference.acceptCorporationBuyer preference.acceptNaturalPersonBuyer preference.requestAddress preference.requestDeliveryAddress preference.showSellerName paymentConfiguration.billet.dueDateDelay paymentConfiguration.creditCard.defaultInstallments paymentConfiguration.creditCard.maxInstallments paymentConfiguration.creditCard.invoiceDescription paymentConfiguration.creditCard.installmentOptions paymentConfiguration.pix.expirationInMinutes supportContact.contactEmailId advanced.redirect.buttonName advanced.redirect.url advanced.redirect.delayInSeconds interestSettings.sellerAbsorbsInterest status url image.name image.path image.url image.isPublic image.extension salesCount createdAt updatedAt',
	pixel:
		'id name platform pixelId createdAt updatedAt',
	product:
		'id name description type status priceInCents price createdAt updatedAt',
	refund:
		'id orderId status valueInCents value buyerEmail productName motive paidAt requestAt createdAt updatedAt supportEmail description userId paymentMethod buyerRevertPix.pixKey buyerRevertPix.pixType statusHistory',
	sale:
		'id orderId status paymentMethod installments valueInCents value customer.name customer.email product.id product.name product.quantity createdAt paidAt',
	subscription:
		'id name status subscriptionPaymentStatus customerEmail productId productName recurrenceValueInCents recurrenceValue periodicity paymentMethod nextPayment expiration subscribedAt createdAt numberRecurrences customer.email customer.phone.areaCode customer.phone.ddd customer.phone.number customer.phone.isMobile customer.billingAddress.zipCode customer.billingAddress.street customer.billingAddress.complement customer.billingAddress.neighborhood customer.billingAddress.city customer.billingAddress.state customer.billingAddress.number customer.deliveryAddress.zipCode customer.deliveryAddress.street customer.deliveryAddress.complement customer.deliveryAddress.neighborhood customer.deliveryAddress.city customer.deliveryAddress.state customer.deliveryAddress.number customer.document.type customer.userId customer.externalReferenceId creditCard.nickname creditCard.last4Numbers creditCard.holderName creditCard.expiresAtMonth creditCard.expiresAtYear creditCard.flag orderItem.product.id orderItem.product.name orderItem.product.type orderItem.unitValueInCents orderItem.unitValue orderItem.quantity repeatIndefinitely customValue.recurrenceFrom customValue.recurrenceTo customValue.valueInCents customValue.value',
	webhook:
		'id account queue name status events dispatchers notifyOnFail.email notifyOnFail.name createdAt updatedAt',
	withdrawRequest:
		'id valueInCents value feeInCents fee netValueInCents netValue status bankAccount.bankCode bankAccount.agencyNumber bankAccount.accountNumber bankAccount.pixKey createdAt updatedAt',
};

/** The fields of `resource`'s records; without Add Decimal Amounts, not the decimals it adds (`value` beside `valueInCents`). */
export function listFieldsOf(resource: string, decimalAmounts: boolean): string[] {
	const fields = (LIST_FIELDS[resource] ?? '').split(' ').filter((f) => f !== '');
	if (decimalAmounts) return fields;
	const decimals = new Set<string>();
	for (const field of fields) {
		const base = /^(.+)InCents$/.exec(field)?.[1];
		if (base !== undefined) decimals.add(fields.includes(`${base}Decimal`) ? `${base}Decimal` : base);
	}
	return fields.filter((f) => !decimals.has(f));
}

export const columnSearch = {
	async searchFileColumns(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
		const resource = String(this.getCurrentNodeParameter('resource') ?? '');
		const fields = listFieldsOf(resource, this.getCurrentNodeParameter('decimalAmounts') === true);
		const text = (filter ?? '').trim().toLowerCase();
		return { results: fields.filter((f) => f.toLowerCase().includes(text)).map((f) => ({ name: f, value: f })) };
	},
};
