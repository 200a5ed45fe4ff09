// The reproduction template of a framework adapter, filled as the harness's generated README
// fills it (src/report/about.rs, `fill` and `json_text`; docs/protocol.md, "The reproduction
// template"), so that an adapter's own tests can run the very text a maintainer is given.

import { Literals, stringify } from './json.js';

/**
 * The JSON text the harness puts in place of `__SCHEMA__` and `__ARGUMENTS__`: compact JSON (key
 * order kept; a number equal to the double of a literal in `literals` written with that literal,
 * any other as JavaScript writes it) in printable ASCII, every other UTF-16 code unit and every
 * `'`, backtick and `$` written as a `\uXXXX` escape (lower-case hex, as serde_json and
 * JSON.stringify write theirs). The text is JSON of the same value and sits unchanged in a
 * `String.raw` template or as an expression.
 */
export function jsonText(value, literals = new Literals()) {
    return stringify(value, literals).replace(/[^\x20-\x7e]|['`$]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * `template` with every `__TOOL__` replaced by `tool` as it is, then every `__SCHEMA__` and every
 * `__ARGUMENTS__` by the `jsonText` of `schema` and of `arguments`, in that order (as
 * src/report/about.rs `fill` does). `literals` (from `parse`) gives numbers their literals.
 */
export function fillTemplate(template, { tool, schema, arguments: args, literals = new Literals() }) {
    return template
        .replaceAll('__TOOL__', () => tool)
        .replaceAll('__SCHEMA__', () => jsonText(schema, literals))
        .replaceAll('__ARGUMENTS__', () => jsonText(args, literals));
}
