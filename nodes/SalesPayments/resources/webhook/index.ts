import type { ResourceDef } from '../../fields/types';
import { activate } from './activate';
import { create } from './create';
import { deactivate } from './deactivate';
import { deleteWebhook } from './delete';
import { flush } from './flush';
import { get } from './get';
import { getMany } from './getMany';
import { getQueue } from './getQueue';
import { resume } from './resume';
import { update } from './update';

export const webhook: ResourceDef = {
	value: 'webhook',
	name: 'Webhook',
	description: 'Webhooks that notify HTTP endpoints of order and subscription events, and their queues',
	operations: [activate, create, deactivate, deleteWebhook, flush, get, getMany, getQueue, resume, update],
};
