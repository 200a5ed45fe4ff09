// server.mjs driven as the harness drives it, by the SDK's own client: started over stdio with a
// manifest and a record, it lists every manifest tool, records what a call's handler received
// (one line per run) and answers "ok", and answers a call the SDK refuses with an error while
// nothing is recorded.
//
//     node --test     # from this folder
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const SERVER = fileURLToPath(new URL('./server.mjs', import.meta.url));
const MANIFEST = {
    manifest: 1,
    tools: [
        {
            name: 'update_step',
            description: 'Updates one step.',
            input_schema: {
                type: 'object',
                properties: { step_id: { type: 'string' }, count: { type: 'integer' } },
                required: ['step_id'],
                additionalProperties: false,
            },
        },
        { name: 'normalize_1', input_schema: { type: 'object', properties: { ids: { type: 'array' } } } },
    ],
};

function files(t) {
    const dir = mkdtempSync(join(tmpdir(), 'over-mcp-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const manifest = join(dir, 'manifest.json');
    writeFileSync(manifest, JSON.stringify(MANIFEST));
    return { manifest, record: join(dir, 'record.jsonl') };
}

function recorded(record) {
    if (!existsSync(record)) return [];
    const text = readFileSync(record, 'utf8');
    assert.ok(text === '' || text.endsWith('\n'));
    return text.split('\n').slice(0, -1).map((line) => JSON.parse(line));
}

async function session(t, { manifest, record }) {
    const transport = new StdioClientTransport({
        command: process.execPath,
        args: [SERVER],
        env: { PATH: process.env.PATH, TOOL_CONFORMANCE_MANIFEST: manifest, TOOL_CONFORMANCE_RECORD: record },
        stderr: 'ignore',
    });
    const client = new Client({ name: 'server-test', version: '1.0.0' });
    await client.connect(transport);
    t.after(() => client.close());
    return client;
}

test('it lists every tool of the manifest and says who it is', async (t) => {
    const client = await session(t, files(t));
    assert.deepEqual(client.getServerVersion(), { name: '@modelcontextprotocol/sdk', version: '1.32.2' });
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), ['normalize_1', 'update_step']);
    const step = tools.find((tool) => tool.name === 'update_step');
    assert.equal(step.description, 'Updates one step.');
    assert.deepEqual(Object.keys(step.inputSchema.properties), ['step_id', 'count']);
    assert.deepEqual(step.inputSchema.required, ['step_id']);
});

test('a call the SDK accepts is recorded once and answered ok', async (t) => {
    const paths = files(t);
    const client = await session(t, paths);
    const result = await client.callTool({ name: 'update_step', arguments: { step_id: 's-1', count: 7 } });
    assert.notEqual(result.isError, true);
    assert.deepEqual(result.content, [{ type: 'text', text: 'ok' }]);
    assert.deepEqual(recorded(paths.record), [{ tool: 'update_step', arguments: { step_id: 's-1', count: 7 } }]);
});

test('a call the SDK refuses is an error and nothing is recorded', async (t) => {
    const paths = files(t);
    const client = await session(t, paths);
    let text;
    try {
        const result = await client.callTool({ name: 'update_step', arguments: { count: 3 } });
        assert.equal(result.isError, true);
        text = result.content.map((c) => c.text).join('\n');
    } catch (why) {
        text = why.message; // a JSON-RPC error
    }
    assert.match(text, /step_id/);
    assert.deepEqual(recorded(paths.record), []);
});

test('without a manifest it says so and exits', () => {
    const env = { ...process.env };
    delete env.TOOL_CONFORMANCE_MANIFEST;
    const out = spawnSync(process.execPath, [SERVER], { env, encoding: 'utf8', timeout: 60_000 });
    assert.equal(out.status, 2);
    assert.match(out.stderr, /TOOL_CONFORMANCE_MANIFEST is not set/);
});
