/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Loads the built package the way n8n does (n8n-core's PackageDirectoryLoader) with the n8n-core
 * and n8n-workflow of one n8n install, and prints what they make of it as JSON: which
 * n8n-workflow the package's own `require('n8n-workflow')` got, the nodes and credentials loaded,
 * their descriptions, and for every resource/operation of the action node the parameters that
 * n8n-workflow's displayOptions logic shows. Run as a child process on that n8n's Node:
 *   load-check.ts <package dir> <n8n install's node_modules/n8n, or the repo for its own pins>
 * The package's `require('n8n-workflow')` resolves through NODE_PATH, which the caller sets to
 * the folder holding that n8n's n8n-workflow (nodeModulesOf below).
 */
import { createRequire } from 'node:module';
import path from 'node:path';

export interface LoadReport {
	node: string;
	n8nWorkflow: { version: string; path: string };
	packageN8nWorkflow: string;
	known: { nodes: string[]; credentials: string[] };
	nodes: Array<{
		name: string;
		displayName: string;
		version: number | number[];
		usableAsTool: boolean;
		group: string[];
		credentials: string[];
		webhooks: string[];
		methods: string[];
		hasExecute: boolean;
		hasWebhook: boolean;
		hasPoll: boolean;
		properties: number;
	}>;
	credentials: Array<{ name: string; displayName: string; properties: string[]; authenticate: boolean; test: boolean }>;
	/** `resource/operation` -> names of the parameters n8n-workflow resolves for it (sorted). */
	operations: Record<string, string[]>;
}

interface Property {
	name: string;
	type: string;
	options?: Array<{ value?: unknown }>;
	displayOptions?: { show?: Record<string, unknown[]> };
}

/** `require` as seen from a folder (an n8n install, or n8n-core inside it). */
function requireFrom(dir: string): NodeRequire {
	return createRequire(path.join(dir, 'package.json'));
}

/** The folder of the n8n-workflow that the n8n-core of `from` uses. */
function n8nWorkflowDir(from: string): string {
	const core = path.dirname(requireFrom(from).resolve('n8n-core/package.json'));
	return path.dirname(requireFrom(core).resolve('n8n-workflow/package.json'));
}

/** The node_modules folder holding that n8n-workflow (NODE_PATH for the package's own require). */
export function nodeModulesOf(from: string): string {
	return path.dirname(n8nWorkflowDir(from));
}

export async function loadReport(packageDir: string, from: string): Promise<LoadReport> {
	const core = requireFrom(from)('n8n-core') as typeof import('n8n-core');
	const workflowDir = n8nWorkflowDir(from);
	const workflow = requireFrom(workflowDir)(workflowDir) as typeof import('n8n-workflow');
	const packageN8nWorkflow = path.dirname(requireFrom(packageDir).resolve('n8n-workflow/package.json'));

	const loader = new core.PackageDirectoryLoader(packageDir);
	await loader.loadAll();

	const nodes: LoadReport['nodes'] = [];
	const operations: LoadReport['operations'] = {};
	for (const [name, { type }] of Object.entries(loader.nodeTypes)) {
		const nodeType = type as import('n8n-workflow').INodeType;
		const d = nodeType.description;
		nodes.push({
			name,
			displayName: d.displayName,
			version: d.version,
			usableAsTool: Boolean(d.usableAsTool),
			group: [...d.group],
			credentials: (d.credentials ?? []).map((c) => c.name),
			webhooks: (d.webhooks ?? []).map((w) => `${String(w.httpMethod)} ${String(w.path)}`),
			methods: Object.keys(nodeType.methods ?? {}).sort(),
			hasExecute: typeof nodeType.execute === 'function',
			hasWebhook: typeof nodeType.webhook === 'function',
			hasPoll: typeof nodeType.poll === 'function',
			properties: d.properties.length,
		});
		const properties = d.properties as unknown as Property[];
		const resource = properties.find((p) => p.name === 'resource');
		if (!resource?.options) continue;
		const own = new Set(properties.map((p) => p.name));
		const typeVersion = Array.isArray(d.version) ? Math.max(...d.version) : d.version;
		for (const r of resource.options) {
			const operationProps = properties.filter(
				(p) => p.name === 'operation' && (p.displayOptions?.show?.resource ?? []).includes(r.value),
			);
			for (const op of operationProps.flatMap((p) => p.options ?? [])) {
				const values = { resource: r.value, operation: op.value } as import('n8n-workflow').INodeParameters;
				const resolved = workflow.NodeHelpers.getNodeParameters(d.properties, values, true, false, { typeVersion }, d) ?? {};
				operations[`${String(r.value)}/${String(op.value)}`] = Object.keys(resolved).filter((k) => own.has(k)).sort();
			}
		}
	}
	const credentials: LoadReport['credentials'] = Object.entries(loader.credentialTypes).map(([name, { type }]) => ({
		name,
		displayName: type.displayName,
		properties: type.properties.map((p) => p.name),
		authenticate: type.authenticate !== undefined,
		test: type.test !== undefined,
	}));
	return {
		node: process.version,
		n8nWorkflow: { version: (requireFrom(workflowDir)('./package.json') as { version: string }).version, path: workflowDir },
		packageN8nWorkflow,
		known: { nodes: Object.keys(loader.known.nodes).sort(), credentials: Object.keys(loader.known.credentials).sort() },
		nodes: nodes.sort((a, b) => a.name.localeCompare(b.name)),
		credentials: credentials.sort((a, b) => a.name.localeCompare(b.name)),
		operations,
	};
}

if (require.main === module) {
	const [packageDir, from] = process.argv.slice(2);
	loadReport(packageDir, from).then(
		(report) => process.stdout.write(`${JSON.stringify(report)}\n`),
		(error: Error) => {
			process.stderr.write(`${error.stack ?? String(error)}\n`);
			process.exit(1);
		},
	);
}
