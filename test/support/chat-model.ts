/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: n8n's rules for node code do not apply to tests and scripts */
/**
 * A chat model for n8n's AI Agent without a model: a small OpenAI-compatible server on 127.0.0.1
 * (`POST /v1/chat/completions`, not streamed: what n8n's OpenAI Chat Model sends with *Use
 * Responses API* off). It answers with the replies a test scripts, in order (a tool call, then the
 * final text), and records every request n8n sent: the messages (the tools' answers among them)
 * and the tools with the descriptions n8n gave them. Point an `openAiApi` credential's Base URL
 * at `url`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { closeAtEnd } from './teardown';

/** One call of a tool the model makes: the tool's name as n8n sends it (the node's name, `_` for spaces). */
export interface ToolCall {
	name: string;
	args: Record<string, unknown>;
}

/** What the model answers to one request: tool calls, or its final text. */
export type Reply = { toolCalls: ToolCall[] } | { text: string };

export interface ChatMessage {
	role: string;
	content: string | null;
	tool_call_id?: string;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
}

export interface ChatTool {
	type: string;
	function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ChatRequest {
	path: string;
	model: string;
	messages: ChatMessage[];
	tools: ChatTool[];
	stream: boolean;
}

export interface ChatModelServer {
	/** The Base URL of the credential: `http://127.0.0.1:<port>/v1`. */
	url: string;
	requests: ChatRequest[];
	/** The replies of the next requests, in order; past the last, the model answers "Done.". */
	script(replies: Reply[]): void;
	/** The tools' answers the model received, in order: the content of each `tool` message of the last request. */
	toolAnswers(): string[];
	close(): Promise<void>;
}

let calls = 0;

function completion(reply: Reply, model: string) {
	const message =
		'text' in reply
			? { role: 'assistant', content: reply.text }
			: {
					role: 'assistant',
					content: null,
					tool_calls: reply.toolCalls.map((call) => ({
						id: `call_${++calls}`,
						type: 'function',
						function: { name: call.name, arguments: JSON.stringify(call.args) },
					})),
				};
	return {
		id: `chatcmpl-${++calls}`,
		object: 'chat.completion',
		created: 1_700_000_000,
		model,
		choices: [{ index: 0, message, finish_reason: 'text' in reply ? 'stop' : 'tool_calls' }],
		usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
	};
}

export async function startChatModel(): Promise<ChatModelServer> {
	const requests: ChatRequest[] = [];
	let replies: Reply[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
				res.writeHead(404, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ error: { message: `Not served here: ${req.method} ${req.url}` } }));
				return;
			}
			const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Partial<ChatRequest>;
			requests.push({ path: req.url, model: String(body.model), messages: body.messages ?? [], tools: body.tools ?? [], stream: body.stream === true });
			const reply = replies.shift() ?? { text: 'Done.' };
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify(completion(reply, String(body.model))));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
	const close = async () => {
		unregister();
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	};
	const unregister = closeAtEnd(`chat model server ${url}`, close);
	return {
		url,
		requests,
		script(next) {
			replies = [...next];
			requests.length = 0;
		},
		toolAnswers() {
			const last = requests[requests.length - 1];
			return (last?.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));
		},
		close,
	};
}
