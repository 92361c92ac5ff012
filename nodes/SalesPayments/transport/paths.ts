import type { NodeContext } from './errors';
import { fieldError, wrongType } from './errors';

/**
 * The one place that builds request paths: every value placed in one is checked and encoded, so
 * none can leave its segment (`..`, `.`, slashes, backslashes, their percent forms). The spec types
 * some IDs as UUIDs and leaves the rest opaque, so an ID is letters, digits, `-` and `_`, at most
 * 128 characters; a voucher code (typed by people) the same, at most 64.
 */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
export const CODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export type SegmentRule = 'id' | 'code';

export const ID_RULE_WORDS = 'is not a valid ID (letters, digits, "-" and "_" only, at most 128)';

const RULES: Record<SegmentRule, { pattern: RegExp; words: string }> = {
	id: { pattern: ID_PATTERN, words: ID_RULE_WORDS },
	code: { pattern: CODE_PATTERN, words: 'is not a valid code (letters, digits, "-" and "_" only, at most 64)' },
};

/** A value for a `{name}` placeholder of a path, with the field it came from (for the error). */
export interface PathValue {
	value: unknown;
	/** Display name of the field, e.g. "Payment Link". */
	label: string;
	/** Default `id`. */
	rule?: SegmentRule;
}

/** Shows a refused value without echoing a long or odd string whole. */
function shown(value: unknown): string {
	const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
	return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}

/** Checks one value against its rule; returns it trimmed, or throws an error naming the field. */
export function checkSegment(
	ctx: NodeContext,
	value: unknown,
	label: string,
	rule: SegmentRule = 'id',
	itemIndex?: number,
): string {
	const text = typeof value === 'string' ? value.trim() : typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : '';
	const blank = value === undefined || value === null || (typeof value === 'string' && text === '');
	if (blank) fieldError(ctx, `${label} is required`, itemIndex);
	if (typeof value !== 'string' && !(typeof value === 'number' && Number.isSafeInteger(value))) wrongType(ctx, label, 'text', value, itemIndex);
	if (!RULES[rule].pattern.test(text)) fieldError(ctx, `${label} ${shown(text || value)} ${RULES[rule].words}`, itemIndex);
	return text;
}

/** Literal parts of a template: lower-case words, digits and dashes between slashes. */
const LITERAL_PATH = /^(\/([a-z0-9-]+|\{[A-Za-z]+\}))+$/;

/**
 * Fills a template such as `/payment-links/publish/{id}`: each placeholder's value is checked
 * and encoded. A template that is not a plain literal path, or a placeholder without a value,
 * is a programming error and is refused as well.
 */
export function buildPath(
	ctx: NodeContext,
	template: string,
	values: Record<string, PathValue> = {},
	itemIndex?: number,
): string {
	if (!LITERAL_PATH.test(template)) fieldError(ctx, `Internal error: "${template}" is not a path template`, itemIndex);
	return template.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => {
		const given = values[name];
		if (!given) fieldError(ctx, `Internal error: no value for {${name}} in ${template}`, itemIndex);
		return encodeURIComponent(checkSegment(ctx, given.value, given.label, given.rule, itemIndex));
	});
}
