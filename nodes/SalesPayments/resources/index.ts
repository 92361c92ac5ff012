import type { ResourceDef } from '../fields/types';
import { business } from './business';
import { commission } from './commission';
import { customer } from './customer';
import { identity } from './identity';
import { movement } from './movement';
import { offer } from './offer';
import { order } from './order';
import { paymentLink } from './paymentLink';
import { pixel } from './pixel';
import { product } from './product';
import { refund } from './refund';
import { sale } from './sale';
import { subscription } from './subscription';
import { voucher } from './voucher';
import { webhook } from './webhook';
import { withdrawRequest } from './withdrawRequest';

/** Every resource of the action node, in the order the editor lists them. Add a resource here. */
export const resources: ResourceDef[] = [
	business,
	commission,
	customer,
	identity,
	movement,
	offer,
	order,
	paymentLink,
	pixel,
	product,
	refund,
	sale,
	subscription,
	voucher,
	webhook,
	withdrawRequest,
];
