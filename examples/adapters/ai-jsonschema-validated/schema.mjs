// What this row gives jsonSchema(schema, options): a validate function made with Ajv 8 (the JSON
// Schema validator most JavaScript code uses), as an app author would write one:
//
//     const check = new Ajv({ allErrors: true, strict: false }).compile(schema);
//     jsonSchema(schema, { validate: (value) => check(value)
//         ? { success: true, value }
//         : { success: false, error: new Error(ajv.errorsText(check.errors)) } });
//
// allErrors, so that one error lists every problem; strict off, so that annotation and extension
// keywords (x-*) in a tool's schema do not stop compilation. Ajv's default draft (07), no formats
// added, no coercion, no defaults. The error also carries Ajv's `errors` list, which is where the
// problems are read from (contract rule 2: the framework's structured errors).
import Ajv from 'ajv';
import { Unsupported } from 'tool-conformance-adapter';

export const VALIDATOR = 'with validate: Ajv 8 (draft-07, allErrors, strict off)';

export function schemaOptions(schema) {
    // One Ajv per tool: two tools whose schemas share an $id would clash in one instance.
    const ajv = new Ajv({ allErrors: true, strict: false });
    let check;
    try {
        check = ajv.compile(schema);
    } catch (why) {
        throw new Unsupported(`Ajv refused to compile the schema: ${why?.name ?? "Error"}: ${why?.message ?? why}`);
    }
    return {
        validate: (value) => {
            if (check(value)) return { success: true, value };
            const error = new Error(ajv.errorsText(check.errors));
            error.errors = check.errors;
            return { success: false, error };
        },
    };
}

const KINDS = {
    required: 'missing_required',
    additionalProperties: 'unknown_field',
    type: 'wrong_type',
    enum: 'not_in_enum',
    const: 'not_in_enum',
    minLength: 'too_short',
};

const pointerSegments = (path) => (path ? path.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')) : []);

/** The Ajv errors on the error's cause chain (InvalidToolInputError -> TypeValidationError -> ours). */
function ajvErrors(error) {
    for (let e = error, depth = 0; e && depth < 6; e = e.cause, depth++) {
        if (Array.isArray(e.errors)) return e.errors;
    }
    return null;
}

/** The problems Ajv's errors name, in the suite's kinds where one fits, else Ajv's keyword. */
export function problemsFrom(error) {
    const errors = ajvErrors(error);
    if (!errors) return [];
    return errors.map((e) => {
        const segments = pointerSegments(e.instancePath);
        let kind = KINDS[e.keyword] ?? e.keyword;
        const problem = { kind };
        if (segments.length > 0) problem.field = segments[0];
        else if (e.keyword === 'required') problem.field = e.params?.missingProperty;
        else if (e.keyword === 'additionalProperties') problem.field = e.params?.additionalProperty;
        if (segments.length === 0 && (e.keyword === 'anyOf' || e.keyword === 'oneOf')) problem.kind = 'no_alternative';
        problem.path = e.instancePath;
        problem.text = `${e.instancePath || '(root)'} ${e.message}`;
        return problem;
    });
}
