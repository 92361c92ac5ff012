import type { INodeParameters } from 'n8n-workflow';

/** Order › Create Charge parameters for one pix payment of one item (49.90), with `extra` merged in. */
export function pixCharge(extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'order',
		operation: 'createCharge',
		buyerName: 'Lucas Ferreira',
		buyerEmail: 'lucas.ferreira@mail.example',
		items: { item: [{ name: 'Sourdough Masterclass', quantity: 1, priceInCents: 4990 }] },
		payments: { payment: [{ method: 'pix', numberInstallments: 1, valueInCents: 4990 }] },
		...extra,
	};
}
