import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { newRun } from './transport/cache';
import { asNodeError, fieldError } from './transport/errors';
import { convertFilters, filterCollection } from './lists/filters';
import { checkOneOf, toIsoDate } from './fields/validation';
import { wholeNumberOption } from './transport/numbers';
import type { PollEvent } from './polling/events';
import { EVENT_OPTIONS, EVENTS, eventByValue, STATUS_PARAMETERS } from './polling/events';
import { baseline, pollCursor, pollSnapshot, sample } from './polling/poller';
import type { PollSettings, PollState } from './polling/state';
import { STATE_KEY, STATE_VERSION } from './polling/state';
import { digest } from './polling/recordFields';
import { Budget, counted } from './polling/dateWindows';

export const DEFAULT_MAX_RECORDS_PER_POLL = 100;
export const MAX_RECORDS_LIMIT = 10_000;
export const DEFAULT_LOOK_BACK_MINUTES = 5;
export const MAX_LOOK_BACK_MINUTES = 1_440;
export const DEFAULT_WATCH_DAYS = 30;
/** Most requests one poll makes (Options › Max Requests per Poll). */
export const DEFAULT_MAX_REQUESTS = 500;
export const MAX_MAX_REQUESTS = 100_000;
export const MAX_WATCH_DAYS = 365;

const SNAPSHOT_EVENTS = EVENTS.filter((e) => e.mode === 'snapshot').map((e) => e.value);
const START_FROM_EVENTS = EVENTS.filter((e) => e.startFrom).map((e) => e.value);

/** The static data objects of the polls in progress: a poll never overlaps another of the same node. */
const inProgress = new WeakSet<object>();

function noticeOf(event: PollEvent): INodeProperties {
	return {
		displayName: event.notice,
		name: 'notice',
		type: 'notice',
		default: '',
		displayOptions: { show: { event: [event.value] } },
	};
}

function filtersOf(event: PollEvent): INodeProperties[] {
	if (event.filterFields.length === 0) return [];
	return [{ ...filterCollection(event.filterFields), displayOptions: { show: { event: [event.value] } } }];
}

const optionsField: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Look-Back Window (Minutes)',
			name: 'lookBackMinutes',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_LOOK_BACK_MINUTES, numberPrecision: 0 },
			default: DEFAULT_LOOK_BACK_MINUTES,
			description:
				'How far behind the last record seen each poll looks again, for records the platform shows late (with a date already passed). Records found there are still reported only once.',
			displayOptions: { hide: { '/event': SNAPSHOT_EVENTS } },
		},
		{
			displayName: 'Max Records per Poll',
			name: 'maxRecordsPerPoll',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_RECORDS_LIMIT, numberPrecision: 0 },
			default: DEFAULT_MAX_RECORDS_PER_POLL,
			description:
				'Most records one poll reports (one workflow execution). The rest are reported by the next polls, oldest first.',
		},
		{
			displayName: 'Max Requests per Poll',
			name: 'maxRequestsPerPoll',
			type: 'number',
			typeOptions: { minValue: 2, maxValue: MAX_MAX_REQUESTS, numberPrecision: 0 },
			default: DEFAULT_MAX_REQUESTS,
			description:
				'Most requests one poll sends to the platform, retries included. A poll that would need more fails and its cursor does not move, or, when what it read is complete up to a date, reports that and goes on from there the next poll.',
		},
		{
			displayName: 'Start From',
			name: 'startFrom',
			type: 'dateTime',
			default: '',
			description:
				'On activation, report the records from this moment on instead of only those that appear after the activation. A date without a time zone is read in the workflow\'s time zone.',
			displayOptions: { show: { '/event': START_FROM_EVENTS } },
		},
		{
			displayName: 'Watch Window (Days)',
			name: 'watchDays',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_WATCH_DAYS, numberPrecision: 0 },
			default: DEFAULT_WATCH_DAYS,
			description: 'Withdraw requests made within this many days are watched for status changes',
			displayOptions: { show: { '/event': ['withdrawRequestStatusChanged'] } },
		},
	],
};

function readStatuses(ctx: IPollFunctions, event: PollEvent): string[] {
	if (!event.statusesParam) return [];
	const property = STATUS_PARAMETERS.find((p) => p.name === event.statusesParam) as INodeProperties;
	const raw = ctx.getNodeParameter(event.statusesParam, property.default) as unknown;
	const label = property.displayName;
	let values: string[];
	if (property.type === 'multiOptions') {
		const allowed = (property.options ?? []).map((o) => String((o as { value: string }).value));
		values = (Array.isArray(raw) ? raw : []).map((v) => checkOneOf.call(ctx, v, allowed, undefined, label));
	} else {
		values = typeof raw === 'string' ? raw.split(',').map((v) => v.trim()).filter(Boolean) : [];
	}
	if (event.status === 'entered' && values.length === 0) fieldError(ctx, `${label}: choose at least one status`);
	return [...new Set(values)].sort();
}

function numberOption(ctx: IPollFunctions, options: IDataObject, name: string, label: string, fallback: number, min: number, max: number): number {
	return wholeNumberOption(ctx, options[name], { label, min, max, fallback });
}

/** The node's parameters, checked; throws a NodeOperationError naming the field. */
export function readSettings(ctx: IPollFunctions): PollSettings {
	const value = checkOneOf.call(
		ctx,
		ctx.getNodeParameter('event', ''),
		EVENTS.map((e) => e.value),
		undefined,
		'Event',
	);
	const event = eventByValue(value) as PollEvent;
	const options = (ctx.getNodeParameter('options', {}) as IDataObject) ?? {};
	const filters = event.filterFields.length
		? convertFilters(ctx, (ctx.getNodeParameter('filters', {}) as IDataObject) ?? {}, event.filterFields)
		: {};
	const statuses = readStatuses(ctx, event);
	const maxRecords = numberOption(ctx, options, 'maxRecordsPerPoll', 'Max Records per Poll', DEFAULT_MAX_RECORDS_PER_POLL, 1, MAX_RECORDS_LIMIT);
	const maxRequests = numberOption(ctx, options, 'maxRequestsPerPoll', 'Max Requests per Poll', DEFAULT_MAX_REQUESTS, 2, MAX_MAX_REQUESTS);
	const lookBack = numberOption(ctx, options, 'lookBackMinutes', 'Look-Back Window (Minutes)', DEFAULT_LOOK_BACK_MINUTES, 0, MAX_LOOK_BACK_MINUTES);
	const watchDays = numberOption(ctx, options, 'watchDays', 'Watch Window (Days)', DEFAULT_WATCH_DAYS, 1, MAX_WATCH_DAYS);
	const startText = event.startFrom && options.startFrom ? toIsoDate.call(ctx, options.startFrom, undefined, 'Start From') : undefined;
	const startFrom = startText === undefined ? undefined : Date.parse(startText);
	const signature = digest(
		JSON.stringify({
			event: event.value,
			filters,
			statuses,
			startFrom: startText ?? null,
			watchDays: event.mode === 'snapshot' ? watchDays : null,
		}),
	);
	return { event, filters, statuses, maxRecords, maxRequests, lookBackMs: lookBack * 60_000, startFrom, watchDays, signature };
}

function readState(data: IDataObject): PollState | undefined {
	const raw = data[STATE_KEY] as PollState | undefined;
	if (!raw || typeof raw !== 'object' || raw.v !== STATE_VERSION || typeof raw.sig !== 'string') return undefined;
	// Static data comes back wrapped by n8n: work on a plain copy.
	return JSON.parse(JSON.stringify(raw)) as PollState;
}

export class SalesPaymentsPollingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Sales & Payments Polling Trigger',
		name: 'salesPaymentsPollingTrigger',
		icon: { light: 'file:salesPaymentsPollingTrigger.svg', dark: 'file:salesPaymentsPollingTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: `={{ ${JSON.stringify(Object.fromEntries(EVENTS.map((e) => [e.value, e.name])))}[$parameter["event"]] }}`,
		description:
			'Starts the workflow on changes the platform\'s webhooks do not announce (refund and withdraw requests, commissions, customers, sales, movements, canceled or expired subscriptions, product statuses), by polling',
		defaults: { name: 'Sales & Payments Polling Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'salesPaymentsApi', required: true }],
		properties: [
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				options: EVENT_OPTIONS,
				default: 'refundRequestCreated',
				required: true,
				description: 'The change that starts the workflow',
			},
			...EVENTS.map(noticeOf),
			...STATUS_PARAMETERS,
			...EVENTS.flatMap(filtersOf),
			optionsField,
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const settings = readSettings(this);
		// n8n reuses one poll context while the workflow is active: each poll starts a new run of the
		// per-run cache (credentials changed meanwhile are read again).
		newRun(this);
		const now = Date.now();
		// Every request of this poll goes through `io.ctx`, counted against Max Requests per Poll.
		const io = counted(this, new Budget(settings.maxRequests));
		if (this.getMode() === 'manual') {
			// A manual run ("Fetch Test Event") shows a sample and never touches the saved state.
			try {
				const found = await sample(io, settings, now);
				return found.length ? [this.helpers.returnJsonArray(found)] : null;
			} catch (error) {
				throw asNodeError(this, error);
			}
		}
		const data = this.getWorkflowStaticData('node');
		// A poll still running when the next one is due: the new one is skipped, not doubled.
		if (inProgress.has(data)) return null;
		inProgress.add(data);
		try {
			const state = readState(data);
			io.pageSize = state?.size;
			let items: IDataObject[] = [];
			let next: PollState;
			if (!state || state.sig !== settings.signature) {
				next = await baseline(io, settings, now);
				if (settings.startFrom !== undefined && settings.event.mode === 'cursor') {
					({ items, state: next } = await pollCursor(io, settings, next, now));
				}
			} else if (settings.event.mode === 'snapshot') {
				({ items, state: next } = await pollSnapshot(io, settings, state, now));
			} else {
				({ items, state: next } = await pollCursor(io, settings, state, now));
			}
			// Only now, with every page read and nothing left to fail, does the cursor move; n8n
			// saves it when it starts the execution with these records.
			data[STATE_KEY] = next as unknown as IDataObject;
			return items.length ? [this.helpers.returnJsonArray(items)] : null;
		} catch (error) {
			throw asNodeError(this, error);
		} finally {
			inProgress.delete(data);
		}
	}
}
