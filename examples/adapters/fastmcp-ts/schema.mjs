// How this row writes a tool's parameters: a zod schema, the Standard Schema FastMCP's README shows
// first (`server.addTool({ name, description, parameters: z.object({ ... }), execute })`). The zod is
// what a server author writes by hand for the JSON Schema (the Node kit's zod-shape, toZodSchema:
// any root, so a closed root is z.strictObject, an open one z.looseObject or a catchall, a root
// anyOf a z.union). Where that mapping has no zod for a keyword (not, allOf, items without a type,
// a required name that is not declared, ...), zod's own converter writes it: z.fromJSONSchema, for
// just the properties that have the keyword when the rest of the root maps, else for the whole
// schema. This is the ai-zod row's mapping, given this folder's zod (the one FastMCP validates
// with). Only a schema zod itself refuses has no parameters: Refused, quoting zod.
import { z } from 'zod';
import { CannotSay, toZodSchema, useZod } from 'tool-conformance-adapter/zod-shape';

useZod(z);

/** zod refused to write the schema: the message quotes zod's own error. */
export class Refused extends Error {}

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const setOwn = (o, name, value) => Object.defineProperty(o, name, { value, enumerable: true, configurable: true, writable: true });

/** zod's own z.fromJSONSchema for `schema`; Refused quoting zod when it refuses. */
function converted(schema, what) {
    try {
        return z.fromJSONSchema(schema);
    } catch (why) {
        throw new Refused(`z.fromJSONSchema refused ${what}: ${why?.message ?? why}`);
    }
}

/**
 * The zod schema given as the tool's parameters: the hand-written zod where the mapping says the
 * schema; else, for a root object whose trouble is in some properties, the hand-written object
 * extended with zod's own z.fromJSONSchema for each of those properties; else z.fromJSONSchema of
 * the whole schema. Refused (zod's error) when zod refuses.
 */
export function zodParameters(schema) {
    try {
        return toZodSchema(schema);
    } catch (why) {
        if (!(why instanceof CannotSay)) throw new Refused(`zod refused the schema: ${why?.message ?? why}`);
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
                setOwn(hand, name, sub);
            } catch (why) {
                if (!(why instanceof CannotSay)) throw new Refused(`zod refused the schema: ${why?.message ?? why}`);
                setOwn(hand, name, {});
                converter[name] = isObject(sub) ? { ...defs, ...sub } : sub;
            }
        }
        let base = null;
        try {
            base = toZodSchema({ ...schema, properties: hand });
        } catch (why) {
            if (!(why instanceof CannotSay)) throw new Refused(`zod refused the schema: ${why?.message ?? why}`);
        }
        if (base !== null && typeof base.extend === 'function') {
            const required = new Set(Array.isArray(schema.required) ? schema.required : []);
            const extension = {};
            for (const [name, sub] of Object.entries(converter)) {
                const field = converted(sub, `the property ${JSON.stringify(name)}`);
                setOwn(extension, name, required.has(name) ? field : field.optional());
            }
            return base.extend(extension);
        }
    }
    return converted(schema, 'the schema');
}
