// Types of tool-conformance-adapter: protocol v1 of the tool-conformance harness.

/** A JSON value as the kit hands it over (numbers as JS numbers). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A tool as `register` carries it. */
export interface Tool {
    name: string;
    description?: string;
    input_schema: Json;
}

/** The error object a caller got; at least a string `message`. */
export interface ErrorObject {
    message: string;
    [key: string]: Json | undefined;
}

export type Transport = 'direct' | 'structured' | 'http';
export type View = 'get_api_spec' | 'direct';
type MaybePromise<T> = T | Promise<T>;

/** What `start` answers. */
export interface Implementation {
    name: string;
    version: string;
    language?: string;
    homepage?: string;
    rules: string[];
    transports: Transport[];
    /** The words (a name, a URL) HTTP errors point callers back to get_api_spec with, when the
     *  runtime's discovery is not a tool named get_api_spec (at most 512 characters). */
    get_api_spec?: string;
}

/** The runtime under test, made fresh by `runtime()` at every `start`. */
export interface Runtime {
    /** Replaces the registry with these tools. */
    register(tools: Tool[]): MaybePromise<void>;
    /** The input schema the view publishes. */
    describe(tool: string, view: View): MaybePromise<Json>;
    /** Makes the call as it arrives on the transport; null when the handler ran, else the error the caller got. */
    invoke(transport: Transport, tool: string, args: Json, handler: (received: unknown) => void): MaybePromise<ErrorObject | Json | null | undefined>;
    /** The arguments that reach a tool with this schema; throw Rejected when refused before any tool ran. */
    normalize(schema: Json, args: Json): MaybePromise<unknown>;
    /** Called when the session ends. */
    close?(): MaybePromise<void>;
}

export interface ServeOptions {
    implementation: Implementation;
    runtime: () => Runtime;
    /** Defaults to process.argv.slice(2): `--http [HOST:]PORT` serves HTTP, else stdio. */
    argv?: string[];
}

/** Serves protocol v1 (stdio, or HTTP with `--http [HOST:]PORT`). */
export function serve(options: ServeOptions): Promise<unknown>;

/** Answered `unsupported`: the case is skipped. */
export class Unsupported extends Error {
    constructor(why: string);
}
/** Answered `error`: the case is an error. */
export class Failure extends Error {
    constructor(why: string);
}
/** Thrown by normalize: answered `rejected` with this error. */
export class Rejected extends Error {
    constructor(error: ErrorObject | string);
    error: ErrorObject;
}

/** Doubles and the literals they were parsed from. */
export class Literals {
    add(value: number, literal: string): void;
    get(value: number): string | undefined;
}
/** JSON text written verbatim by `stringify`. */
export class RawJson {
    constructor(text: string);
    text: string;
}
/** Strict JSON parse that records each number's literal. */
export function parse(text: string, literals?: Literals): { value: Json; literals: Literals };
/** JSON text, numbers equal to a recorded literal's double written with that literal. */
export function stringify(value: unknown, literals?: Literals): string;

/** The compact JSON text the harness fills a reproduction template with: printable ASCII, every other UTF-16 unit and every ', ` and $ as \uXXXX. */
export function jsonText(value: unknown, literals?: Literals): string;
/** A reproduction template filled as the harness fills it: __TOOL__, then __SCHEMA__ and __ARGUMENTS__ (their jsonText). */
export function fillTemplate(template: string, fill: { tool: string; schema: unknown; arguments: unknown; literals?: Literals }): string;

/** JSON text of arguments for a framework's wire decoder: JSON.parse reads it into the values the kit handed over (Infinity as 1e400, -0 kept). */
export function argumentsText(args: unknown): string;
/**
 * The tools of a register request, each checked: a Failure for one without a string name or an
 * input_schema, Unsupported for a name registered twice (`registered(name)` says whether it is).
 */
export function checkedTools(
    tools: unknown[],
    registered: (name: string) => boolean,
): Generator<{ name: string; description?: string; input_schema: unknown }>;
/** JSON text of a value as it is now (what a tool received when it ran): JSON.stringify's, but -0 kept. */
export function snapshot(value: unknown): string;
/** The version in the package.json of `name`, found above `resolve(entry)`; pass the adapter's own import.meta.resolve. 'unknown' when none. */
export function installedVersion(resolve: (specifier: string) => string, name: string, entry?: string): string;

/** One protocol session. */
export class Session {
    constructor(options: { implementation: Implementation; runtime: () => Runtime });
    /** The response text to a request text, and whether it was stop. */
    handleText(text: string): Promise<[string, boolean]>;
}
export const MAX_BODY: number;
export function serveStdio(session: Session, options?: { input?: NodeJS.ReadableStream; output?: (text: string) => Promise<void> }): Promise<void>;
export function serveHttp(session: Session, address: string): Promise<import('node:http').Server>;

// An MCP server under test over MCP (also exported as tool-conformance-adapter/manifest).
/** 'TOOL_CONFORMANCE_MANIFEST' and 'TOOL_CONFORMANCE_RECORD': the files the harness names. */
export const MANIFEST_ENV: string;
export const RECORD_ENV: string;
/** A missing, unreadable or malformed manifest; the message names the file. */
export class ManifestError extends Error {}
/** The tools of the manifest (by default the file TOOL_CONFORMANCE_MANIFEST names), and its numbers' literals. */
export function loadManifest(path?: string): { tools: Tool[]; literals: Literals };
/** The record line for a call: `{"tool":…,"arguments":…}` (or `"not_json"`: what it received, as `util.inspect` renders it, and why it is not JSON) and `\n`. */
export function recordLine(tool: string, args: unknown): string;
/** Appends what a handler received to the record (by default the file TOOL_CONFORMANCE_RECORD names); returns 'ok'. */
export function recordCall(tool: string, args: unknown, path?: string): 'ok';
/** The record line for a tool the framework refused to register: `{"tool":…,"refused":…}` and `\n`. */
export function refusalLine(tool: string, why: unknown): string;
/** Says in the record that the framework refused to register `tool`, and why (`<call> refused <what>: <its error>`). */
export function recordRefusal(tool: string, why: unknown, path?: string): void;
