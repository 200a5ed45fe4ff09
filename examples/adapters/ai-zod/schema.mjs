// How this row writes a tool's inputSchema: a zod schema, the AI SDK's documented tool path
// (`tool({ inputSchema: z.object({ ... }), execute })`). The zod is what an app author writes by
// hand for the JSON Schema (the Node kit's zod-shape, toZodSchema: any
// root, so a closed root is z.strictObject, an open one z.looseObject or a catchall, a root anyOf
// a z.union). Where that mapping has no zod for a keyword (not, allOf, items without a type, a
// required name that is not declared, ...), zod's own converter writes it: z.fromJSONSchema, for
// just the properties that have the keyword when the rest of the root maps, else for the whole
// schema. Only a schema zod itself refuses is declined, with zod's own error.
import { z } from 'zod';
import { Unsupported } from 'tool-conformance-adapter';
import { CannotSay, toZodSchema, useZod } from 'tool-conformance-adapter/zod-shape';

// The mapping is the kit's, shared with the MCP SDK rows; it is handed this folder's zod (the one
// the SDK validates with), so each row runs its own pinned zod.
useZod(z);

export const VALIDATOR = 'a zod schema (inputSchema: z.object(...)), validated by the SDK with zod';

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** zod's own z.fromJSONSchema for `schema`; Unsupported quoting zod when it refuses. */
function converted(schema, what) {
    try {
        return z.fromJSONSchema(schema);
    } catch (why) {
        throw new Unsupported(`z.fromJSONSchema refused ${what}: ${why?.message ?? why}`);
    }
}

/**
 * The zod schema given as the tool's inputSchema: the hand-written zod where the mapping says the
 * schema; else, for a root object whose trouble is in some properties, the hand-written object
 * extended with zod's own z.fromJSONSchema for each of those properties; else z.fromJSONSchema of
 * the whole schema. Unsupported (zod's error) when zod refuses.
 */
export function zodInputSchema(schema) {
    try {
        return toZodSchema(schema);
    } catch (why) {
        if (!(why instanceof CannotSay)) throw new Unsupported(`zod refused the schema: ${why?.message ?? why}`);
    }
    if (isObject(schema) && isObject(schema.properties)) {
        // The definitions a property's $ref may point into, beside it, so it is mapped alone.
        const defs = Object.fromEntries(['$defs', 'definitions'].filter((k) => k in schema).map((k) => [k, schema[k]]));
        const hand = {};
        const converter = {};
        for (const [name, sub] of Object.entries(schema.properties)) {
            try {
                // anyOf of one branch is that branch: the property alone, its $refs resolved
                // against the definitions beside it.
                toZodSchema({ ...defs, anyOf: [sub] });
                Object.defineProperty(hand, name, { value: sub, enumerable: true, configurable: true, writable: true });
            } catch (why) {
                if (!(why instanceof CannotSay)) throw new Unsupported(`zod refused the schema: ${why?.message ?? why}`);
                Object.defineProperty(hand, name, { value: {}, enumerable: true, configurable: true, writable: true });
                converter[name] = isObject(sub) ? { ...defs, ...sub } : sub;
            }
        }
        let base = null;
        try {
            base = toZodSchema({ ...schema, properties: hand });
        } catch (why) {
            if (!(why instanceof CannotSay)) throw new Unsupported(`zod refused the schema: ${why?.message ?? why}`);
        }
        if (base !== null && typeof base.extend === 'function') {
            const required = new Set(Array.isArray(schema.required) ? schema.required : []);
            const extension = {};
            for (const [name, sub] of Object.entries(converter)) {
                const field = converted(sub, `the property ${JSON.stringify(name)}`);
                Object.defineProperty(extension, name, {
                    value: required.has(name) ? field : field.optional(),
                    enumerable: true,
                    configurable: true,
                    writable: true,
                });
            }
            return base.extend(extension);
        }
    }
    return converted(schema, 'the schema');
}

/** No options: the zod schema is the inputSchema itself (runtime.mjs's jsonSchema slot). */
export function schemaOptions(_schema) {
    return undefined;
}

/** The zod issues on the error's cause chain (InvalidToolInputError -> TypeValidationError -> ZodError). */
function zodIssues(error) {
    for (let e = error, depth = 0; e && depth < 6; e = e.cause, depth++) {
        if (Array.isArray(e.issues)) return e.issues;
    }
    return null;
}

/** The problems zod's issues name, in the suite's kinds where one fits, else zod's issue code. */
export function problemsFrom(error) {
    const issues = zodIssues(error);
    if (!issues) return [];
    const problems = [];
    for (const issue of issues) {
        const path = (issue.path ?? []).map(String);
        const text = `${path.join('.') || '(root)'}: ${issue.message}`;
        if (issue.code === 'unrecognized_keys') {
            for (const key of issue.keys ?? []) {
                problems.push({ kind: 'unknown_field', field: path.length ? path[0] : key, path: path.join('.'), text });
            }
            continue;
        }
        let kind = issue.code;
        if (issue.code === 'invalid_type') kind = / received undefined$/.test(issue.message) ? 'missing_required' : 'wrong_type';
        else if (issue.code === 'invalid_value') kind = 'not_in_enum';
        else if (issue.code === 'too_small' && issue.origin === 'string') kind = 'too_short';
        else if ((issue.code === 'invalid_union' || issue.code === 'invalid_xor') && path.length === 0) kind = 'no_alternative';
        const problem = { kind };
        if (path.length) problem.field = path[0];
        problem.path = path.join('.');
        problem.text = text;
        problems.push(problem);
    }
    return problems;
}
