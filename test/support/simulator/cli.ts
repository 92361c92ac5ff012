/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * Runs the simulator as its own process: `npm run simulator -- [--port 4010] [--size 300] [--log]`.
 * Prints one JSON line with the URL and the seeded credentials, then serves until SIGINT/SIGTERM.
 */
import { runCommand } from '../command';
import { startSimulator } from './server';

function arg(name: string): string | undefined {
	const i = process.argv.indexOf(`--${name}`);
	return i === -1 ? undefined : process.argv[i + 1];
}

async function main() {
	const sim = await startSimulator({
		port: Number(arg('port') ?? 0),
		size: Number(arg('size') ?? 120),
		seed: Number(arg('seed') ?? 42),
		log: process.argv.includes('--log'),
	});
	process.stdout.write(`${JSON.stringify({ ready: true, url: sim.url, credentials: sim.credentials })}\n`);
	const stop = async () => {
		await sim.close();
		process.exit(0);
	};
	process.on('SIGINT', () => void stop());
	process.on('SIGTERM', () => void stop());
}

runCommand(module, main);
