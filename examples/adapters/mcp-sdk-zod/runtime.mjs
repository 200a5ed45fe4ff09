// The MCP TypeScript SDK v1 adapter (protocol v1) shared by the rows mcp-sdk-zod and
// mcp-sdk-fromjsonschema: McpServer.registerTool(name, { inputSchema }, handler), called with
// tools/call through the SDK's InMemoryTransport pair (structured) and its Streamable HTTP
// transport on 127.0.0.1 (http). Nothing here validates, repairs or rewrites arguments: what the
// handler receives, and the error text the caller gets, are the SDK's (zod's). What a row decides
// is its inputSchema, given by its schema.mjs. The protocol half is the Node adapter kit's.
//
// This file imports nothing: each row's adapter.mjs imports the SDK, the kit (with its MCP
// registry) and its schema.mjs from its own folder, so from its own node_modules and pins, and
// hands them to serveMcpSdk. A row therefore runs only what its own npm ci installed, and this file can serve
// a row other than the one whose folder it sits in.

const PACKAGE = '@modelcontextprotocol/sdk';
// structured: tools/call through the in-memory client/server pair; http: tools/call through the
// SDK's Streamable HTTP transport on loopback. No direct: the SDK runs a registered tool only
// from its tools/call request handler (validateToolInput and executeToolHandler are private).
const TRANSPORTS = ['structured', 'http'];
/** The name of the scratch tool normalize registers. */
const SCRATCH_TOOL = 'repro';

// ---------------------------------------------------------------------------------------------
// Problems, read from the text the caller got. The SDK turns zod's issues into
// "Input validation error: Invalid arguments for tool T: " followed by one line per issue,
// "<zod message> at <dot path>" (the bare message for an issue at the root); the issues
// themselves never reach the caller, so the text is all there is to read.

const KINDS = [
    [/^Invalid input: expected .*, received undefined$/, 'missing_required'],
    [/^Invalid input: expected (?:string|number|int|boolean|null|object|array|record|tuple|bigint|nan|date|never|unknown), received /, 'wrong_type'],
    [/^Invalid (?:option|input): expected /, 'not_in_enum'],
    [/^Too small: expected string to have >=?\d+ characters?$/, 'too_short'],
    [/^Unrecognized keys?: /, 'unknown_field'],
    [/^Invalid input$/, 'invalid_union'],
    [/^Too small: /, 'too_small'],
    [/^Too big: /, 'too_big'],
    [/^Invalid string: /, 'invalid_format'],
    [/^Invalid number: /, 'not_multiple_of'],
];

/** The root field a zod dot path ("a.b[0]") is under. */
const rootField = (path) => /^[^.[]*/.exec(path)[0];

/** The problems the SDK's text names; `issueProblems` is the kit's reading of the wire check's issues. */
export function problemsFrom(message, issueProblems) {
    const issues = wireIssues(message, issueProblems);
    if (issues) return issues;
    const marker = 'Invalid arguments for tool ';
    const at = message.indexOf(marker);
    if (at < 0) return [];
    const rest = message.slice(at + marker.length);
    const colon = rest.indexOf(': ');
    if (colon < 0) return [];
    const problems = [];
    for (const line of rest.slice(colon + 2).split('\n')) {
        const cut = line.lastIndexOf(' at ');
        const text = cut >= 0 ? line.slice(0, cut) : line;
        const path = cut >= 0 ? line.slice(cut + 4) : '';
        const kind = (KINDS.find(([pattern]) => pattern.test(text)) ?? [null, 'unrecognized'])[1];
        const problem = { kind };
        if (path && path !== 'object root') problem.field = rootField(path);
        if (kind === 'unknown_field' && !problem.field) {
            // At the root, zod names the keys: 'Unrecognized keys: "a", "b"'.
            const names = [...text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
            for (const name of names) problems.push({ kind, field: name, path, text: line });
            if (names.length) continue;
        }
        if (kind === 'invalid_union' && !problem.field) problem.kind = 'no_alternative';
        problem.path = path;
        problem.text = line;
        problems.push(problem);
    }
    return problems;
}

/**
 * The SDK's own check of a tools/call request (before any tool is looked up) fails with
 * "MCP error -32603: " and zod's issues as JSON: those are structured, and read as such. An issue
 * at params.arguments is about the arguments themselves (invalid_type there: the root is not an
 * object, wrong_type with no field); one below it names the root field it is under.
 */
function wireIssues(message, issueProblems) {
    const m = /^MCP error -?\d+: (\[[\s\S]*\])$/.exec(message);
    if (!m) return null;
    let issues;
    try {
        issues = JSON.parse(m[1]);
    } catch {
        return null;
    }
    if (!Array.isArray(issues)) return null;
    return issueProblems(issues);
}

/**
 * Serves protocol v1 for one row (the kit's `serve`, on stdio or --http), with the SDK's modules,
 * the kit and the row's schema.mjs as the row's adapter.mjs imported them.
 *
 * @param {object} row
 * @param {string} row.adapter the row's name, for the log
 * @param {object} row.sdk McpServer, StreamableHTTPServerTransport, Client,
 *     StreamableHTTPClientTransport, InMemoryTransport and deserializeMessage from
 *     @modelcontextprotocol/sdk
 * @param {object} row.kit the module tool-conformance-adapter
 * @param {object} row.mcp the module tool-conformance-adapter/mcp (the MCP registry, Pair)
 * @param {object} row.schema the row's schema.mjs: inputSchemaFor(schema) (throwing the kit's
 *     Unsupported for a schema the row cannot say) and SCHEMA_PATH, a phrase for the log
 * @param {(specifier: string) => string} row.resolve the row's import.meta.resolve, to read the
 *     installed versions of the SDK and zod
 */
export function serveMcpSdk({ adapter, sdk, kit, mcp: { mcpPairs, McpRuntime, wireProblems }, schema: { inputSchemaFor, SCHEMA_PATH }, resolve: resolveImport }) {
    const { serve, Unsupported, RawJson, snapshot, installedVersion } = kit;
    const log = (...args) => console.error(`[${adapter} adapter]`, ...args);

    // -----------------------------------------------------------------------------------------
    // The framework: one McpServer + Client pair joined by InMemoryTransport (the kit's Pair),
    // each tool registered with the row's inputSchema.

    const Pair = mcpPairs({ ...sdk, prepare: inputSchemaFor, who: 'the SDK', log });

    // -----------------------------------------------------------------------------------------
    // The runtime object the kit drives: one per `start`.

    class Runtime extends McpRuntime {
        constructor() {
            super(Pair, log);
            // A tool whose schema this row cannot say is left out; the others are registered, and
            // any call or describe of the one left out is answered with its Unsupported.
            this.declines = true;
        }

        // Both views are what the SDK publishes: tools/list is the only schema a client or a model
        // provider ever gets from an MCP server.
        async describe(tool, view) {
            const pair = this.requireRegistry();
            if (view === 'get_api_spec' || view === 'direct') return new RawJson(snapshot(await pair.listedSchema(tool)));
            throw new Unsupported(`no view ${JSON.stringify(view)}`);
        }

        problems(tool, message) {
            return problemsFrom(message, wireProblems);
        }

        // One fixed name (the one a reproduction of a normalize case uses), so that no message
        // depends on how many normalize calls came before.
        scratchName() {
            return SCRATCH_TOOL;
        }
    }

    // The SDK's transports can fail outside any request (a socket closing late): logged, and the
    // adapter keeps serving.
    process.on('uncaughtException', (why) => log('uncaught exception:', why?.stack ?? why));

    serve({
        implementation: {
            name: PACKAGE,
            version: installedVersion(resolveImport, PACKAGE, `${PACKAGE}/server/mcp.js`),
            language: 'typescript',
            homepage: 'https://github.com/modelcontextprotocol/typescript-sdk',
            rules: ['RT-TOOL-8', 'PLAT-162'],
            transports: TRANSPORTS,
        },
        runtime: () => new Runtime(),
    });
    log(`zod ${installedVersion(resolveImport, 'zod')}, inputSchema by ${SCHEMA_PATH}`);
}
