/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * What `npm run bench` measures (main.ts): the list it reads, its size, the latency and rate-limit
 * scenarios, the trigger's deliveries, and where the results go.
 */
import path from 'node:path';

export const REPO_DIR = path.resolve(__dirname, '../../..');
export const OUT_DIR = path.join(REPO_DIR, 'bench');
export const MOVEMENTS = 100_000;
export const LATENCY_MS = 20;
export const RATE_LIMIT = 20;
export const DELIVERIES = 10_000;
export const LIST_PATH = '/movement/filter';
