import type { IDataObject, INodeProperties } from 'n8n-workflow';

/**
 * Helpers for single-record answers and request bodies whose exact shape the spec leaves open
 * ("not shown"): read tolerantly, send only what the user set.
 */

/** The one plain-object guard: an object that is neither null nor an array. */
export function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `target[key] = value` as the target's own field, whatever the key: an assignment to `__proto__`
 * would set the object's prototype instead (the key vanishes, and the value's fields read through
 * it). Every object built from platform data or a user's JSON sets its fields with this.
 */
export function setOwn(target: IDataObject, key: string, value: unknown): void {
	if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
	else target[key] = value as IDataObject[string];
}

/** Whether `record` has the field `key` itself (`in` also finds what every object inherits: `constructor`, `toString`...). */
export function hasOwn(record: object, key: string): boolean {
	return Object.prototype.hasOwnProperty.call(record, key);
}

/** "a string (\"oops\")", "null", "an array" ... for messages about a value of the wrong kind. */
export function describeValue(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'undefined') return 'missing';
	const article = typeof value === 'number' ? 'a number' : typeof value === 'string' ? 'a string' : `a ${typeof value}`;
	return `${article} (${JSON.stringify(value).slice(0, 40)})`;
}

/**
 * The record of a single-record answer: `data[key]` when the platform wraps it (e.g.
 * `{ customer: {...} }`), otherwise the data as returned.
 */
export function recordOf(data: IDataObject, key: string): IDataObject {
	const inner = data[key];
	return isPlainObject(inner) ? inner : data;
}

/** The answer of an operation whose success body is not documented; an empty one becomes `fallback`. */
export function resultOr(data: IDataObject, fallback: IDataObject): IDataObject {
	return Object.keys(data).length ? data : fallback;
}

/** Values of a single-value fixedCollection (`{ values: {...} }`), or `{}` when it is not set. */
export function fixedValues(param: unknown, group = 'values'): IDataObject {
	const inner = isPlainObject(param) ? param[group] : undefined;
	return isPlainObject(inner) ? inner : {};
}

/** Entries of a multiple-value fixedCollection (`{ item: [...] }`), or `[]`. */
export function fixedList(param: unknown, group: string): IDataObject[] {
	const inner = isPlainObject(param) ? param[group] : undefined;
	return Array.isArray(inner) ? (inner.filter(isPlainObject) as IDataObject[]) : [];
}

/** Sets `body.a.b.c = value`, creating the objects on the way. */
export function setPath(body: IDataObject, path: readonly string[], value: unknown): void {
	let target = body;
	for (const key of path.slice(0, -1)) {
		if (!isPlainObject(target[key]) || !hasOwn(target, key)) setOwn(target, key, {});
		target = target[key] as IDataObject;
	}
	setOwn(target, path[path.length - 1], value);
}

/** Merges `extra` under `base`: the fields set one by one win over the same keys of a JSON pass-through, objects merge. */
export function mergeBody(extra: IDataObject, base: IDataObject): IDataObject {
	const out: IDataObject = { ...extra };
	for (const [key, value] of Object.entries(base)) {
		setOwn(out, key, isPlainObject(value) && hasOwn(out, key) && isPlainObject(out[key]) ? mergeBody(out[key] as IDataObject, value) : value);
	}
	return out;
}

/** A JSON pass-through option for fields of the platform that the node does not list. */
export function extraFieldsOption(what: string): INodeProperties {
	return {
		displayName: 'Extra Fields (JSON)',
		name: 'extraFields',
		type: 'json',
		default: '{}',
		description: `Further fields of the ${what} the platform accepts, as a JSON object. Sent as given; the fields set above win over the same keys.`,
	};
}

/** The optional fields of a create (`additionalFields`) or the fields an update changes (`updateFields`). */
export function fieldsCollection(kind: 'additional' | 'update', options: INodeProperties[]): INodeProperties {
	const update = kind === 'update';
	return {
		displayName: update ? 'Update Fields' : 'Additional Fields',
		name: update ? 'updateFields' : 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options,
	};
}

/**
 * A warning at the top of an operation's panel (an n8n notice, named `<name>Notice`), for writes
 * whose effect cannot be undone or only for a while: charging, redeeming, cancelling a redemption.
 */
export function noticeField(name: string, text: string): INodeProperties {
	return { displayName: text, name: `${name}Notice`, type: 'notice', default: '' };
}
