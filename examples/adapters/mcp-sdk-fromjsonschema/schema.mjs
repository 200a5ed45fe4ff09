// How this row turns a tool's JSON Schema into the SDK's inputSchema: zod's own converter,
// z.fromJSONSchema(schema), handed to registerTool as it comes back. A schema it throws on is
// answered `unsupported` with zod's message.
import { z } from 'zod';
import { Unsupported } from 'tool-conformance-adapter';

export const SCHEMA_PATH = 'z.fromJSONSchema';

export function inputSchemaFor(schema) {
    try {
        return z.fromJSONSchema(schema);
    } catch (why) {
        throw new Unsupported(`z.fromJSONSchema refused the schema: ${why?.message ?? why}`);
    }
}
