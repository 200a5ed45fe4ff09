#!/usr/bin/env node
// A tool-conformance adapter (protocol v1) for the MCP TypeScript server,
// @modelcontextprotocol/server v2, used as it is: tools are registered with
// McpServer.registerTool and a raw JSON Schema wrapped by the package's own fromJsonSchema
// (Ajv underneath), and called with tools/call through the package's InMemoryTransport pair and
// the matching @modelcontextprotocol/client Client. Nothing here validates, repairs or rewrites
// arguments: what the handler receives, and the error text the caller gets, are the framework's.
// The protocol itself (framing, seq, error answers, HTTP serving) is the Node adapter kit's,
// tool-conformance-adapter (adapters/node); this file is the framework half only.
//
//     node adapter.mjs                      # protocol v1 on stdin and stdout; logs on stderr
//     node adapter.mjs --http 127.0.0.1:0   # protocol v1 over HTTP; prints the URL
//
// See README.md beside this file for the mapping and the findings.

import { McpServer, InMemoryTransport, fromJsonSchema, deserializeMessage } from '@modelcontextprotocol/server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { serve, Unsupported, RawJson, snapshot, installedVersion } from 'tool-conformance-adapter';
import { McpRuntime, mcpPairs, wireProblems as issueProblems } from 'tool-conformance-adapter/mcp';

const log = (...args) => console.error('[mcp-typescript adapter]', ...args);

const PACKAGE = '@modelcontextprotocol/server';
// structured: tools/call through the in-memory client/server pair; http: tools/call through the
// framework's Streamable HTTP transport on loopback. No direct: see README.md. The kit answers an
// invoke on any other transport `unsupported` without reaching the runtime.
const TRANSPORTS = ['structured', 'http'];

// ---------------------------------------------------------------------------------------------
// The framework: one McpServer + Client pair joined by InMemoryTransport.

/** The framework's Ajv check: the raw JSON Schema wrapped by fromJsonSchema, on every server. */
function wrapped(schema) {
    try {
        return fromJsonSchema(schema);
    } catch (why) {
        throw new Unsupported(`fromJsonSchema refused the schema: ${why?.message ?? why}`);
    }
}

/**
 * One registry (the kit's MCP Pair): the tools registered on an McpServer with registerTool and
 * fromJsonSchema, reached by a Client through an InMemoryTransport pair (structured), and, once
 * asked for, over the framework's Node Streamable HTTP transport on loopback (http).
 */
class Pair extends mcpPairs({
    McpServer,
    Client,
    InMemoryTransport,
    StreamableHTTPServerTransport: NodeStreamableHTTPServerTransport,
    StreamableHTTPClientTransport,
    deserializeMessage,
    inputSchema: wrapped,
    log,
}) {
    /** The input schema the server holds for a tool: its registered Standard Schema's JSON form. */
    heldSchema(name) {
        const { registered } = this.record(name);
        const std = registered?.inputSchema?.['~standard'];
        if (!std?.jsonSchema?.input) throw new Unsupported('the registered tool holds no JSON Schema');
        return std.jsonSchema.input({ target: 'draft-2020-12' });
    }
}

// ---------------------------------------------------------------------------------------------
// Reading the framework's error text. Ajv's errorsText() joins one "data<path> <message>" per
// error with ", "; the server prefixes it. Problems are read from that text only.

const KINDS = [
    [/^must have required property '(.*)'$/s, 'missing_required'],
    [/^must NOT have additional properties$/, 'unknown_field'],
    [/^must be (?:integer|number|string|boolean|object|array|null)(?:,(?:integer|number|string|boolean|object|array|null))*$/, 'wrong_type'],
    [/^must be equal to one of the allowed values$/, 'not_in_enum'],
    [/^must be equal to constant$/, 'not_in_enum'],
    [/^must NOT have fewer than \d+ characters$/, 'too_short'],
    [/^must match a schema in anyOf$/, 'anyOf'],
    [/^must match exactly one schema in oneOf$/, 'oneOf'],
    [/^must NOT have more than \d+ characters$/, 'maxLength'],
    [/^must be >= /, 'minimum'],
    [/^must be > /, 'exclusiveMinimum'],
    [/^must be <= /, 'maximum'],
    [/^must be < /, 'exclusiveMaximum'],
    [/^must be multiple of /, 'multipleOf'],
    [/^must match pattern /, 'pattern'],
    [/^must match format /, 'format'],
    [/^must NOT have fewer than \d+ items$/, 'minItems'],
    [/^must NOT have more than \d+ items$/, 'maxItems'],
    [/^must NOT have duplicate items/, 'uniqueItems'],
    [/^must NOT have fewer than \d+ properties$/, 'minProperties'],
    [/^must NOT have more than \d+ properties$/, 'maxProperties'],
    [/^must NOT be valid$/, 'not'],
    [/^must match "(?:then|else)" schema$/, 'if'],
    [/^must have propert(?:y|ies) .* when property .* is present$/, 'dependencies'],
    [/^must NOT have unevaluated properties$/, 'unevaluatedProperties'],
    [/^must NOT have unevaluated items$/, 'unevaluatedItems'],
    [/^must contain /, 'contains'],
    [/^property name must be valid$/, 'propertyNames'],
    [/^boolean schema is false$/, 'false_schema'],
];

function pointerSegments(path) {
    if (!path) return [];
    return path
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The problems the framework's message names, in the suite's kinds where one fits. */
function problemsFrom(toolName, message) {
    const wire = 'Invalid tools/call request: ';
    if (message.includes(wire)) return wireProblems(message.slice(message.indexOf(wire) + wire.length));
    const prefix = `Input validation error: Invalid arguments for tool ${toolName}: `;
    if (!message.startsWith(prefix)) return [];
    const body = message.slice(prefix.length);
    const problems = [];
    for (const item of body.split(/, (?=data[/ ])/)) {
        const m = /^data((?:\/.*?)?) (must .*|property name must be valid|boolean schema is false)$/s.exec(item);
        if (!m) {
            problems.push({ kind: 'unrecognized', text: item });
            continue;
        }
        const path = m[1];
        const text = m[2];
        const segments = pointerSegments(path);
        let kind = 'unrecognized';
        let match;
        for (const [pattern, name] of KINDS) {
            match = pattern.exec(text);
            if (match) {
                kind = name;
                break;
            }
        }
        const problem = { kind };
        if (segments.length > 0) problem.field = segments[0];
        else if (kind === 'missing_required') problem.field = match[1];
        if (segments.length === 0 && (kind === 'anyOf' || kind === 'oneOf')) problem.kind = 'no_alternative';
        problem.path = path || '';
        problem.text = item;
        problems.push(problem);
    }
    return problems;
}

/**
 * The server's wire check of a tools/call request (before any tool is looked up) reports zod
 * issues as JSON. An issue at params.arguments is about the arguments themselves: invalid_type
 * there is the root's wrong type (no field); one below it names the root field it is under.
 */
function wireProblems(text) {
    let issues;
    try {
        issues = JSON.parse(text);
    } catch {
        return [{ kind: 'unrecognized', text }];
    }
    if (!Array.isArray(issues)) return [{ kind: 'unrecognized', text }];
    return issueProblems(issues);
}

// ---------------------------------------------------------------------------------------------
// The runtime object the kit drives: one per `start`.

class Runtime extends McpRuntime {
    constructor() {
        super(Pair, log);
    }

    // Schemas go to the kit as JSON text (RawJson), written from the values the framework gave.
    async describe(tool, view) {
        const pair = this.requireRegistry();
        if (view === 'get_api_spec') return new RawJson(snapshot(await pair.listedSchema(tool)));
        if (view === 'direct') return new RawJson(snapshot(pair.heldSchema(tool)));
        throw new Unsupported(`no view ${JSON.stringify(view)}`);
    }

    problems(tool, message) {
        return problemsFrom(tool, message);
    }

    // Refused in one step, before the tool ran: the caller's error, with the problems it names.
    rejection(name, message) {
        return { message, problems: problemsFrom(name, message) };
    }
}

// The framework's transports can fail outside any request (a socket closing late): logged, and
// the adapter keeps serving.
process.on('uncaughtException', (why) => log('uncaught exception:', why?.stack ?? why));

serve({
    implementation: {
        name: PACKAGE,
        version: installedVersion(import.meta.resolve, PACKAGE),
        language: 'typescript',
        homepage: 'https://github.com/modelcontextprotocol/typescript-sdk',
        rules: ['RT-TOOL-8', 'PLAT-162'],
        transports: TRANSPORTS,
    },
    runtime: () => new Runtime(),
});
