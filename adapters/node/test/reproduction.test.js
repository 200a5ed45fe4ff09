// The reproduction helpers: a template filled as the page fills it and run beside itself, and the
// outcome line read back, with the exact-string call every row's tests send.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { EXACT, received, reproducer } from '../reproduction.js';

test('a filled template runs beside itself and its received line reads back exactly', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kit-repro-'));
    try {
        writeFileSync(join(dir, 'repro.mjs'), [
            "const tool = '__TOOL__';",
            'const schema = JSON.parse(String.raw`__SCHEMA__`);',
            'const args = JSON.parse(String.raw`__ARGUMENTS__`);',
            "if (schema.required.every((n) => n in args)) console.log('the tool received: ' + JSON.stringify(args));",
            "else console.log('the caller got: ' + tool + ' misses a name');",
        ].join('\n'));
        const repro = reproducer(pathToFileURL(join(dir, 'test.mjs')).href);
        assert.deepEqual(received(repro(EXACT.tool, EXACT.schema, EXACT.arguments)), EXACT.arguments);
        const refused = repro(EXACT.tool, EXACT.schema, {});
        assert.equal(received(refused), undefined);
        assert.match(refused, /^the caller got: note_it misses a name$/m);
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
});
