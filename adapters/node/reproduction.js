// A framework adapter's reproduction template run the way a page's reader runs it, for the
// adapter's own tests (`node --test` beside it): filled as src/report/about.rs fills it (the
// kit's `fillTemplate`), written beside the template so that its imports resolve as they do
// there, and run with this Node; and the outcome lines it prints read back (docs/protocol.md,
// "The reproduction template"). And what every template prints, which the templates import
// (below): the tool's `the tool received:` line and the caller's `the caller got:` lines.

import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { fillTemplate } from './template.js';

let filled = 0;

/**
 * A function `repro(tool, schema, args)` that fills the template beside `moduleUrl` (an adapter
 * test's `import.meta.url`; `repro.mjs` unless named) and returns what it printed on stdout.
 */
export function reproducer(moduleUrl, template = 'repro.mjs') {
    const here = dirname(fileURLToPath(moduleUrl));
    return (tool, schema, args) => {
        const text = fillTemplate(readFileSync(join(here, template), 'utf8'), { tool, schema, arguments: args });
        const file = join(here, `.repro-${process.pid}-${++filled}.mjs`);
        try {
            writeFileSync(file, text);
            return execFileSync(process.execPath, [file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
        } finally {
            rmSync(file, { force: true });
        }
    };
}

/** The value of the first `the tool received: <JSON>` line of a reproduction's output, or undefined. */
export function received(out) {
    const line = out.split('\n').find((l) => l.startsWith('the tool received: '));
    return line === undefined ? undefined : JSON.parse(line.slice('the tool received: '.length));
}

/**
 * A call whose one string holds what a template's literal must carry exactly (`'`, a backtick,
 * `${`, a backslash, characters beyond ASCII, a line separator, a lone surrogate): a template that
 * reaches its tool with it unchanged puts the arguments in place faithfully.
 */
export const EXACT = Object.freeze({
    tool: 'note_it',
    schema: { type: 'object', properties: { note: { type: 'string' } }, required: ['note'] },
    arguments: { note: "it's `x` ${y} \\ é 😀 \u2028 \ud800" },
});

// What a reproduction template prints, the same in every row: its tool prints what it received
// and its caller prints the error it got (docs/protocol.md, "The reproduction template"). A
// template imports these from the kit, which is installed beside every Node adapter.

/** A tool function for a template: prints `the tool received: <JSON>`, and returns 'ok'. */
export async function toolReceived(input) {
    console.log('the tool received:', JSON.stringify(input));
    return 'ok';
}

/**
 * The Vercel AI SDK's mock model (`MockLanguageModel`, the MockLanguageModelV3 class a template
 * imports from 'ai/test') whose one answer is a call of `toolName` whose tool-call part carries
 * `argumentsText` as its input: the arguments as JSON text, exactly as a model sent them.
 */
export function modelCalling(MockLanguageModel, toolName, argumentsText) {
    const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
    return new MockLanguageModel({
        doGenerate: async () => ({
            content: [{ type: 'tool-call', toolCallId: 'call-1', toolName, input: argumentsText }],
            finishReason: { unified: 'tool-calls', raw: undefined },
            usage,
            warnings: [],
        }),
    });
}

/**
 * Prints `the caller got: <message>` for each tool error in the content of a generateText
 * result and, with `invalid`, for each tool call the SDK marked invalid (its input refused
 * before any tool ran).
 */
export function callerGot(content, { invalid = false } = {}) {
    for (const part of content) {
        if (invalid && part.type === 'tool-call' && part.invalid) console.log('the caller got:', part.error?.message ?? part.error);
        if (part.type === 'tool-error') console.log('the caller got:', part.error?.message ?? part.error);
    }
}

/** An MCP tool handler for a template: prints `the tool received: <JSON>`, answers 'ok' as text. */
export async function handlerReceived(received) {
    console.log('the tool received:', JSON.stringify(received));
    return { content: [{ type: 'text', text: 'ok' }] };
}

/**
 * Calls the tool `name` on an MCP `server` with `args`, with tools/call from `client`, over the
 * linked pair `[clientSide, serverSide]` (an InMemoryTransport.createLinkedPair()); prints
 * `the caller got: <text>` for a result marked isError (its text contents, a line each) or for
 * what the call threw; then closes both ends.
 */
export async function callOverPair(server, client, [clientSide, serverSide], name, args) {
    await server.connect(serverSide);
    await client.connect(clientSide);
    try {
        const result = await client.callTool({ name, arguments: args });
        if (result.isError) console.log('the caller got:', result.content.map((c) => c.text).join('\n'));
    } catch (error) {
        console.log('the caller got:', error.message);
    }
    await client.close();
    await server.close();
}

/**
 * The mail tool several rows' tests call: two required strings, `to` and `subject`, and a root
 * that declares nothing else; `open` is a call with a name the schema does not declare and a
 * character reference, which a runtime with an open root hands to its tool exactly as sent.
 */
export const MAIL = Object.freeze({
    tool: 'send_mail',
    schema: { type: 'object', properties: { to: { type: 'string' }, subject: { type: 'string' } }, required: ['to', 'subject'] },
    open: { to: 'ops@example.org', subject: 'Disk &amp; full', cc: 'x' },
});
