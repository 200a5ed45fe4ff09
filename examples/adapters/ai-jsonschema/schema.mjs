// What this row gives jsonSchema(schema, options): nothing, as the SDK ships it. Without a
// validate function the SDK only parses the tool call's JSON text; the schema is handed to the
// model and never checked.
export const VALIDATOR = 'with no validate (as it ships)';

export function schemaOptions(_schema) {
    return undefined;
}

/**
 * Problems the SDK's error names. With no validate, the only error the SDK can raise for a tool
 * call's input is its JSON parsing failure (InvalidToolInputError), which names no field: no
 * problems are read from it.
 */
export function problemsFrom(_error) {
    return [];
}
