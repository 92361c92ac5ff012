import { businessSearch } from './business';
import { columnSearch } from './columns';
import { customerSearch } from './customer';
import { paymentLinkSearch } from './paymentLink';
import { pixelSearch } from './pixel';
import { productSearch } from './product';
import { subscriptionSearch } from './subscription';
import { webhookSearch } from './webhook';

/** Every "From list" search method of the action node. Add one line per resource file. */
export const listSearch = {
	...businessSearch,
	...columnSearch,
	...customerSearch,
	...paymentLinkSearch,
	...pixelSearch,
	...productSearch,
	...subscriptionSearch,
	...webhookSearch,
};
