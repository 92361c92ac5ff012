import { businessSearch } from './business';

/** Every "From list" search method of the action node. Add one line per resource file. */
export const listSearch = {
	...businessSearch,
};
