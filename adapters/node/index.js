// Protocol v1 of the tool-conformance harness (docs/protocol.md) for runtimes written in
// JavaScript or TypeScript, with no dependencies: line framing on stdio, HTTP serving, `seq`,
// error answers, lone surrogates and exact numbers.
//
//     import { serve, Unsupported, Failure, Rejected } from 'tool-conformance-adapter';
//     serve({ implementation: { name, version, language: 'typescript', rules, transports, get_api_spec? },
//             runtime: () => ({ register, describe, invoke, normalize }) });
//
// stdio by default; `--http HOST:PORT` on process.argv serves HTTP and prints the URL.

import http from 'node:http';
import { createInterface } from 'node:readline';

import { Literals, RawJson, parse, stringify } from './json.js';
import { argumentsText, installedVersion, snapshot } from './framework.js';
import { fillTemplate, jsonText } from './template.js';

export { Literals, RawJson, argumentsText, fillTemplate, installedVersion, jsonText, parse, snapshot, stringify };
export { MANIFEST_ENV, ManifestError, RECORD_ENV, loadManifest, recordCall, recordLine, recordRefusal, refusalLine } from './manifest.js';

/** Raised by a runtime method for what the runtime does not have: answered `unsupported`. */
export class Unsupported extends Error {
    constructor(why) {
        super(String(why));
        this.name = 'Unsupported';
    }
}

/** Raised by a runtime method for what it could not carry out: answered `error`. */
export class Failure extends Error {
    constructor(why) {
        super(String(why));
        this.name = 'Failure';
    }
}

/** Raised by `normalize` when the runtime refused the arguments before any tool ran. */
export class Rejected extends Error {
    constructor(error) {
        const object = typeof error === 'object' && error !== null && !Array.isArray(error) ? error : { message: String(error) };
        super(typeof object.message === 'string' ? object.message : 'rejected');
        this.name = 'Rejected';
        this.error = object;
    }
}

/** The most bytes an HTTP request body may have. */
export const MAX_BODY = 4 * 1024 * 1024;

const VIEWS = ['get_api_spec', 'direct'];
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The tools of a register request, each checked as a framework adapter's `register` takes it: a
 * Failure for one without a string name or an input_schema, Unsupported for a name registered
 * twice (`registered(name)` says whether the name already is).
 */
export function* checkedTools(tools, registered) {
    for (const tool of tools) {
        if (!isObject(tool) || typeof tool.name !== 'string') throw new Failure('a tool needs a name');
        if (!('input_schema' in tool)) throw new Failure(`tool ${tool.name} has no input_schema`);
        if (registered(tool.name)) throw new Unsupported(`tool ${tool.name} is registered twice`);
        yield tool;
    }
}

function field(request, name, check) {
    if (!Object.prototype.hasOwnProperty.call(request, name)) throw new Failure(`the ${request.cmd} request has no ${JSON.stringify(name)}`);
    const value = request[name];
    if (check && !check(value)) throw new Failure(`the ${request.cmd} request has a bad ${JSON.stringify(name)}`);
    return value;
}

/** A value of the runtime, written now with the request's literals. */
const exact = (value, literals) => new RawJson(stringify(value, literals));

// The reason an exception the runtime threw is answered with, and written to stderr: the
// exception on one line, then its stack frames (as the Python kit does with a traceback).
const adapterBug = (why) => {
    const frames = (why instanceof Error ? String(why.stack ?? '') : '').split('\n').filter((l) => /^\s+at /.test(l));
    const reason = [`the adapter failed: ${describeError(why)}`, ...(frames.length ? ['Stack (innermost first):', ...frames] : [])].join('\n');
    console.error(`[tool-conformance-adapter] ${reason}`);
    return reason;
};
const describeError = (why) => (why instanceof Error ? `${why.name}: ${why.message}` : String(why));

/** One protocol v1 session in front of one runtime at a time; requests are answered in order. */
export class Session {
    constructor({ implementation, runtime }) {
        if (!implementation || typeof implementation.name !== 'string' || typeof implementation.version !== 'string') {
            throw new TypeError('serve needs implementation.name and implementation.version');
        }
        if (typeof runtime !== 'function') throw new TypeError('serve needs runtime: a function that makes a runtime object');
        this.implementation = implementation;
        this.newRuntime = runtime;
        this.runtime = null;
        this.queue = Promise.resolve();
    }

    /** The response text to one request text, and whether it was `stop`; never throws. */
    handleText(text) {
        const result = this.queue.then(() => this.#handle(text));
        this.queue = result.catch(() => {});
        return result;
    }

    async #handle(text) {
        let request;
        let literals;
        try {
            ({ value: request, literals } = parse(text));
        } catch (why) {
            return [stringify({ seq: null, error: `the request is not JSON: ${why.message}` }), false];
        }
        if (!isObject(request)) return [stringify({ seq: null, error: 'the request is not a JSON object' }), false];
        const seq = Object.prototype.hasOwnProperty.call(request, 'seq') ? request.seq : null;
        let answer;
        try {
            answer = await this.#answer(request, literals);
        } catch (why) {
            if (why instanceof Unsupported) answer = { unsupported: why.message };
            else if (why instanceof Failure) answer = { error: why.message };
            else {
                answer = { error: adapterBug(why) };
            }
        }
        // seq is echoed with its own literal; the runtime's values are written with the request's
        // literals (see #answer); the kit's own numbers (handler_calls, protocol) as they are.
        const seqText = new RawJson(stringify(seq, literals));
        let out;
        try {
            out = stringify({ seq: seqText, ...answer });
        } catch (why) {
            out = stringify({ seq: seqText, error: `the adapter could not write its answer as JSON: ${describeError(why)}` });
        }
        return [out, request.cmd === 'stop'];
    }

    #current() {
        if (!this.runtime) this.runtime = this.newRuntime();
        return this.runtime;
    }

    async #answer(request, literals) {
        switch (request.cmd) {
            case 'start': {
                if (field(request, 'protocol') !== 1) throw new Failure('this adapter speaks protocol 1');
                await this.#close();
                this.runtime = this.newRuntime();
                const { name, version, language, homepage } = this.implementation;
                const implementation = { name, version };
                if (language) implementation.language = language;
                if (homepage) implementation.homepage = homepage;
                const answer = {
                    protocol: 1,
                    implementation,
                    rules: [...(this.implementation.rules ?? [])],
                    transports: [...(this.implementation.transports ?? [])],
                };
                // What HTTP errors point back to get_api_spec with, when not the tool's name.
                if (this.implementation.get_api_spec) answer.get_api_spec = this.implementation.get_api_spec;
                return answer;
            }
            case 'register': {
                await this.#current().register(field(request, 'tools', Array.isArray));
                return { ok: true };
            }
            case 'describe': {
                const tool = field(request, 'tool', (v) => typeof v === 'string');
                const view = field(request, 'view', (v) => typeof v === 'string');
                if (!VIEWS.includes(view)) throw new Unsupported(`no view ${JSON.stringify(view)}`);
                return { input_schema: exact(await this.#current().describe(tool, view), literals) };
            }
            case 'invoke': {
                const tool = field(request, 'tool', (v) => typeof v === 'string');
                const transport = field(request, 'transport', (v) => typeof v === 'string');
                const args = field(request, 'arguments');
                if (!(this.implementation.transports ?? []).includes(transport)) throw new Unsupported(`no transport ${JSON.stringify(transport)}`);
                // Each call is written down as JSON text at the moment it happens, so a handler
                // argument the runtime mutates later is recorded as the tool saw it.
                const received = [];
                const handler = (value) => {
                    received.push(stringify(value, literals));
                };
                const error = await this.#current().invoke(transport, tool, args, handler);
                if (error === undefined || error === null) {
                    if (received.length === 0) throw new Failure('the call was not rejected, but the handler did not run');
                    return { outcome: 'executed', handler_calls: received.length, received: new RawJson(received[received.length - 1]) };
                }
                return { outcome: 'rejected', handler_calls: received.length, error: exact(error, literals) };
            }
            case 'normalize': {
                const schema = field(request, 'input_schema');
                const args = field(request, 'arguments');
                try {
                    return { arguments: exact(await this.#current().normalize(schema, args), literals) };
                } catch (why) {
                    if (why instanceof Rejected) return { rejected: exact(why.error, literals) };
                    throw why;
                }
            }
            case 'stop': {
                await this.#close();
                return { ok: true };
            }
            default:
                throw new Unsupported(`no command ${JSON.stringify(request.cmd)}`);
        }
    }

    async #close() {
        const closing = this.runtime;
        this.runtime = null;
        if (closing && typeof closing.close === 'function') await closing.close();
    }
}

/** Serves protocol v1 on stdin and stdout until `stop` or the end of stdin. */
export function serveStdio(session, { input = process.stdin, output = null } = {}) {
    // stdout carries protocol lines only: console output and any other stdout write of the
    // runtime goes to stderr.
    let write = output;
    if (!write) {
        const stdoutWrite = process.stdout.write.bind(process.stdout);
        process.stdout.write = (chunk, encoding, callback) => process.stderr.write(chunk, encoding, callback);
        for (const level of ['log', 'info', 'debug']) console[level] = (...args) => console.error(...args);
        write = (text) => new Promise((resolve) => stdoutWrite(text, resolve));
    }
    return new Promise((resolve) => {
        const lines = createInterface({ input, crlfDelay: Infinity });
        let last = Promise.resolve();
        let stopped = false;
        lines.on('line', (line) => {
            if (stopped || !line.trim()) return;
            // Each write waits for the one before it, so nothing is written after stop.
            last = Promise.all([last, session.handleText(line)]).then(async ([, [text, stop]]) => {
                if (stopped) return;
                await write(text + '\n');
                if (stop) {
                    stopped = true;
                    lines.close();
                }
            });
        });
        lines.on('close', () => last.then(() => resolve()));
    });
}

/** Serves protocol v1 over HTTP on `address` ([HOST:]PORT); resolves to the listening server. */
export function serveHttp(session, address) {
    const colon = address.lastIndexOf(':');
    const host = colon >= 0 ? address.slice(0, colon) || '127.0.0.1' : '127.0.0.1';
    const port = Number(colon >= 0 ? address.slice(colon + 1) : address);
    const send = (res, status, text) => {
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
    };
    const server = http.createServer((req, res) => {
        if (req.method !== 'POST') return send(res, 405, stringify({ seq: null, error: 'POST one protocol v1 request as the body' }));
        const length = req.headers['content-length'];
        if (length === undefined || !/^[0-9]+$/.test(length)) {
            res.shouldKeepAlive = false;
            return send(res, 411, stringify({ seq: null, error: 'a Content-Length is required' }));
        }
        if (Number(length) > MAX_BODY) {
            res.shouldKeepAlive = false;
            return send(res, 413, stringify({ seq: null, error: `the body is longer than ${MAX_BODY} bytes` }));
        }
        const chunks = [];
        req.on('data', (chunk) => chunks.push(chunk));
        req.on('end', async () => {
            let text;
            try {
                text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
            } catch {
                return send(res, 400, stringify({ seq: null, error: 'the body is not UTF-8' }));
            }
            const [answer] = await session.handleText(text);
            const status = answer.startsWith('{"seq":null,"error":"the request is not JSON') ? 400 : 200;
            send(res, status, answer);
        });
    });
    server.keepAliveTimeout = 60_000;
    return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
            const { address: bound, port: boundPort } = server.address();
            const shown = bound.includes(':') ? `[${bound}]` : bound;
            process.stdout.write(`listening on http://${shown}:${boundPort}/\n`);
            resolve(server);
        });
    });
}

/**
 * Reads `--http [HOST:]PORT` from process.argv (stdio when absent) and serves protocol v1 in
 * front of runtimes made by `runtime()` (a fresh one at every `start`).
 */
export async function serve({ implementation, runtime, argv = process.argv.slice(2) }) {
    const session = new Session({ implementation, runtime });
    process.on('unhandledRejection', (why) => console.error('[tool-conformance-adapter] unhandled rejection:', why?.stack ?? why));
    const at = argv.indexOf('--http');
    if (at >= 0) {
        if (at + 1 >= argv.length) throw new TypeError('--http needs [HOST:]PORT');
        return serveHttp(session, argv[at + 1]);
    }
    await serveStdio(session);
    process.exit(0);
}
