// A framework adapter's reproduction template run the way a page's reader runs it, for the
// adapter's own tests (`node --test` beside it): filled as src/report/about.rs fills it (the
// kit's `fillTemplate`), written beside the template so that its imports resolve as they do
// there, and run with this Node; and the outcome lines it prints read back (docs/protocol.md,
// "The reproduction template").

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
