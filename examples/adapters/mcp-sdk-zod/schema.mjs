// How this row turns a tool's JSON Schema into the SDK's inputSchema: a zod raw shape (the Node
// kit's zod-shape, handed this folder's zod), what a server author writes by hand. A schema it
// cannot say is answered `unsupported` with the reason.
import { z } from 'zod';
import { Unsupported } from 'tool-conformance-adapter';
import { CannotSay, toRawShape, useZod } from 'tool-conformance-adapter/zod-shape';

useZod(z);

export const SCHEMA_PATH = 'a zod raw shape';

export function inputSchemaFor(schema) {
    try {
        return toRawShape(schema);
    } catch (why) {
        if (why instanceof CannotSay) throw new Unsupported(`a zod raw shape cannot say this schema: ${why.message}`);
        throw new Unsupported(`zod refused the mapped schema: ${why?.message ?? why}`);
    }
}
